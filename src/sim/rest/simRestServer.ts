import type { IncomingMessage, ServerResponse } from 'node:http';
import { InvalidValueError } from '../../core/invalidValueError.js';
import { isExchangeRejection } from '../exchange/exchangeRejection.js';
import { isSimRejection, SimRejection } from '../simRejection.js';
import type { SimRuntime } from '../simRuntime.js';
import { ACCOUNT_ROUTES } from './accountRoutes.js';
import { AUTH_ROUTES } from './authRoutes.js';
import { planFault, seededUniform } from './faultPlan.js';
import { HISTORY_ROUTES } from './historyRoutes.js';
import { ORDER_ROUTES } from './orderRoutes.js';
import { READ_ROUTES } from './readRoutes.js';
import { requestTarget } from './requestTarget.js';
import { noteRefusedAction } from './refusedActions.js';
import type { SimRequest, SimResponse, SimRoute } from './simRoute.js';

export const SIM_ROUTES: readonly SimRoute[] = [
  ...READ_ROUTES,
  ...AUTH_ROUTES,
  ...ORDER_ROUTES,
  ...ACCOUNT_ROUTES,
  ...HISTORY_ROUTES,
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

/** Finds the route: the first whose pattern and method match, else whether the path is known at all. */
function findRoute(method: string, path: string): Matched | 'wrong-method' | undefined {
  let pathKnown = false;
  let got: readonly string[] | undefined;
  for (const compiled of COMPILED_ROUTES) {
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

function rejectionBody(rejection: SimRejection): SimResponse {
  return { status: rejection.httpStatus, body: { error: { code: rejection.status, message: rejection.text } } };
}

/** Any thrown value becomes the venue's envelope; unknown failures never leak a stack trace. */
export function errorResponse(error: unknown): SimResponse {
  if (isSimRejection(error)) return rejectionBody(error);
  if (isExchangeRejection(error)) {
    return {
      status: error.status === 'Internal' ? 500 : 400,
      body: { error: { code: error.status, message: error.text } },
    };
  }
  if (error instanceof InvalidValueError) return rejectionBody(new SimRejection(400, 'InvalidArgument', error.message));
  return rejectionBody(new SimRejection(500, 'Internal', 'internal error'));
}

/**
 * The simulator's REST side as a plain node:http request listener: routing, body limits, JSON
 * parsing, rate limits, injected faults and the venue's envelopes. Handlers are synchronous
 * against the runtime, so every action is applied atomically between two blocks.
 */
export function createSimRequestListener(runtime: SimRuntime, onInternalError: (error: unknown) => void = () => {}) {
  let requestCounter = 0;
  const random = seededUniform(runtime.options.seed ^ 0x5eed);

  return (req: IncomingMessage, res: ServerResponse): void => {
    requestCounter += 1;
    const requestId = `sim-${runtime.options.seed}-${requestCounter}`;
    void handle(req)
      .then((response) => {
        noteRefusedAction(runtime, req.method, req.url, response);
        send(res, response, requestId);
      })
      .catch((error: unknown) => {
        onInternalError(error);
        send(res, errorResponse(error), requestId);
      });
  };

  async function handle(req: IncomingMessage): Promise<SimResponse> {
    const method = req.method ?? 'GET';
    const url = requestTarget(req.url ?? '/');
    const matched = findRoute(method, url.pathname);
    if (matched === 'wrong-method') {
      await drain(req);
      return rejectionBody(new SimRejection(405, 'Unimplemented', `method ${method} not allowed on ${url.pathname}`));
    }
    if (matched === undefined) {
      await drain(req);
      return rejectionBody(new SimRejection(404, 'NotFound', `no route for ${method} ${url.pathname}`));
    }
    const perTenSeconds = runtime.options.restRequestsPer10s;
    const ip = perTenSeconds > 0 ? (req.socket.remoteAddress ?? 'unknown') : '';
    if (perTenSeconds > 0 && !runtime.ipLimiter.take(ip, runtime.clock.now())) {
      await drain(req);
      const refused = rejectionBody(
        new SimRejection(429, 'ResourceExhausted', `rate limited: ${perTenSeconds} requests per 10 s per IP`),
      );
      // Whole seconds until the IP's window ends (RFC 9110 Retry-After), at least 1.
      const retryAfter = Math.max(1, Math.ceil(runtime.ipLimiter.msUntilReset(ip, runtime.clock.now()) / 1000));
      return { ...refused, headers: { 'retry-after': String(retryAfter) } };
    }
    const plan = planFault(runtime.options.faults, random);
    const bodyResult =
      method === 'POST'
        ? await readJsonBody(req, runtime.options.bodyLimitBytes)
        : { ok: true as const, value: undefined };
    if (plan.delayMs > 0) await runtime.clock.sleep(plan.delayMs);
    if (plan.outcome === 'fail-before') {
      return rejectionBody(new SimRejection(503, 'Unavailable', 'simulated outage: the request was not processed'));
    }
    if (!bodyResult.ok) return rejectionBody(bodyResult.error);
    const request: SimRequest = {
      method,
      path: url.pathname,
      params: matched.params,
      query: url.query,
      body: bodyResult.value,
      bearer: bearerToken(req.headers.authorization),
    };
    let response: SimResponse;
    try {
      response = matched.route.handle(runtime, request);
    } catch (error) {
      if (!isSimRejection(error) && !isExchangeRejection(error) && !(error instanceof InvalidValueError))
        onInternalError(error);
      return errorResponse(error);
    }
    if (plan.outcome === 'fail-after') {
      // A read has nothing to apply: its lost reply is the gateway's 502, never the 500 the venue
      // gives an account read with no on-chain state (venue-facts), which a client must not retry.
      if (!matched.route.mutates)
        return rejectionBody(new SimRejection(502, 'Unavailable', 'simulated gateway failure: the reply was lost'));
      return rejectionBody(
        new SimRejection(
          500,
          'Internal',
          'simulated failure after execution: the action was applied but the reply was lost',
        ),
      );
    }
    return response;
  }
}

function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? '';
}

type BodyResult = { ok: true; value: unknown } | { ok: false; error: SimRejection };

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** Reads at most `limit` bytes; an oversized, non-UTF-8 or non-JSON-object body is refused. */
function readJsonBody(req: IncomingMessage, limit: number): Promise<BodyResult> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('error', () =>
      resolve({ ok: false, error: new SimRejection(400, 'InvalidArgument', 'request body could not be read') }),
    );
    req.on('end', () => {
      if (tooLarge) {
        resolve({ ok: false, error: new SimRejection(413, 'InvalidArgument', `request body exceeds ${limit} bytes`) });
        return;
      }
      // Fatal decoding: invalid UTF-8 is refused, not silently turned into U+FFFD and acted on.
      let text: string;
      try {
        text = STRICT_UTF8.decode(Buffer.concat(chunks));
      } catch {
        resolve({ ok: false, error: new SimRejection(400, 'InvalidArgument', 'request body is not valid UTF-8') });
        return;
      }
      if (text.trim() === '') {
        resolve({
          ok: false,
          error: new SimRejection(400, 'InvalidArgument', 'request body is empty: expected a JSON object'),
        });
        return;
      }
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        resolve({ ok: false, error: new SimRejection(400, 'InvalidArgument', 'request body is not valid JSON') });
        return;
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        const got = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
        resolve({
          ok: false,
          error: new SimRejection(400, 'InvalidArgument', `request body must be a JSON object, got ${got}`),
        });
        return;
      }
      resolve({ ok: true, value });
    });
  });
}

function drain(req: IncomingMessage): Promise<void> {
  return new Promise((resolve) => {
    req.resume();
    req.on('end', resolve);
    req.on('error', () => resolve());
    req.on('close', () => resolve());
  });
}

function send(res: ServerResponse, response: SimResponse, requestId: string): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify({ ...response.body, request_id: requestId });
  res.writeHead(response.status, {
    ...response.headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}
