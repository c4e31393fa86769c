import { ACCOUNT_ROUTES } from './accountRoutes.js';
import { AUTH_ROUTES } from './authRoutes.js';
import { HISTORY_ROUTES } from './historyRoutes.js';
import { LIVE_READ_ROUTES } from './liveReadRoutes.js';
import { ORDER_ROUTES } from './orderRoutes.js';
import { READ_ROUTES } from './readRoutes.js';
import type { SimRoute } from './simRoute.js';
import { TPSL_ROUTES } from './tpslRoutes.js';

/** Every REST route the simulator serves, and how a request finds its route and path parameters. */
export const SIM_ROUTES: readonly SimRoute[] = [
  ...READ_ROUTES,
  ...AUTH_ROUTES,
  ...ORDER_ROUTES,
  ...ACCOUNT_ROUTES,
  ...HISTORY_ROUTES,
  ...LIVE_READ_ROUTES,
  ...TPSL_ROUTES,
];

interface Matched {
  readonly route: SimRoute;
  readonly params: Record<string, string>;
}

/** A route's pattern split once at start-up; a pattern without `:name` segments matches by string equality. */
interface CompiledRoute {
  readonly route: SimRoute;
  /** Undefined for a static pattern. */
  readonly segments: readonly string[] | undefined;
}

const COMPILED_ROUTES: readonly CompiledRoute[] = SIM_ROUTES.map((route) => ({
  route,
  segments: route.pattern.split('/').some((w) => w.startsWith(':')) ? route.pattern.split('/') : undefined,
}));

function matchSegments(want: readonly string[], got: readonly string[]): Record<string, string> | undefined {
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i] ?? '';
    const g = got[i] ?? '';
    if (w.startsWith(':')) {
      if (g === '') return undefined;
      params[w.slice(1)] = safeDecode(g);
    } else if (w !== g) return undefined;
  }
  return params;
}

/**
 * For each static pattern, every route that matches that exact path, in table order (static
 * routes of that pattern and any `:name` route whose segments take it): a static path, what
 * every trading request asks for, is found by one lookup rather than a walk of the table. Any
 * other path can only match a `:name` route.
 */
const BY_STATIC_PATH: ReadonlyMap<string, readonly CompiledRoute[]> = new Map(
  COMPILED_ROUTES.filter((c) => c.segments === undefined).map((c) => {
    const path = c.route.pattern;
    return [path, COMPILED_ROUTES.filter((other) => matchesPath(other, path))];
  }),
);
const PATTERNED_ROUTES = COMPILED_ROUTES.filter((c) => c.segments !== undefined);

function matchesPath(compiled: CompiledRoute, path: string): boolean {
  return compiled.segments === undefined
    ? compiled.route.pattern === path
    : matchSegments(compiled.segments, path.split('/')) !== undefined;
}

/** Finds the route: the first whose pattern and method match, else whether the path is known at all. */
export function findRoute(method: string, path: string): Matched | 'wrong-method' | undefined {
  let pathKnown = false;
  let got: readonly string[] | undefined;
  for (const compiled of BY_STATIC_PATH.get(path) ?? PATTERNED_ROUTES) {
    let params: Record<string, string> | undefined;
    if (compiled.segments === undefined) {
      if (path !== compiled.route.pattern) continue;
      params = {};
    } else {
      got ??= path.split('/');
      params = matchSegments(compiled.segments, got);
      if (params === undefined) continue;
    }
    if (compiled.route.method === method) return { route: compiled.route, params };
    pathKnown = true;
  }
  return pathKnown ? 'wrong-method' : undefined;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
