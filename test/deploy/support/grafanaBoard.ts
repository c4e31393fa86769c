import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '../../..');
export const BOARD_PATH = join(ROOT, 'deploy', 'grafana', 'perpbot-fleet.json');

export interface BoardQuery {
  /** `panel title / refId`, or `variable name`. */
  readonly where: string;
  /** The PromQL as Grafana sends it, before its variables are replaced. */
  readonly expr: string;
}

interface Panel {
  readonly type: string;
  readonly title: string;
  readonly targets?: readonly { readonly refId: string; readonly expr: string }[];
  readonly panels?: readonly Panel[];
}

export interface Board {
  readonly uid: string;
  readonly title: string;
  readonly panels: readonly Panel[];
  readonly templating: {
    readonly list: readonly { readonly name: string; readonly type: string; readonly definition?: string }[];
  };
}

export function readBoard(): Board {
  return JSON.parse(readFileSync(BOARD_PATH, 'utf8')) as Board;
}

/** Every panel query, and every variable's query as the selector inside `label_values(...)`. */
export function boardQueries(board: Board): BoardQuery[] {
  const panels = board.panels.flatMap((p) => [p, ...(p.panels ?? [])]);
  const fromPanels = panels.flatMap((p) =>
    (p.targets ?? []).map((t) => ({ where: `${p.title} / ${t.refId}`, expr: t.expr })),
  );
  const fromVariables = board.templating.list
    .filter((v) => v.type === 'query')
    .map((v) => {
      const selector = /^label_values\((.+),\s*\w+\)$/.exec(v.definition ?? '')?.[1];
      if (selector === undefined) throw new Error(`variable ${v.name}: expected label_values(<selector>, <label>)`);
      return { where: `variable ${v.name}`, expr: selector };
    });
  return [...fromPanels, ...fromVariables];
}

/** The query as Prometheus receives it from Grafana: every variable replaced by a value. */
export function expandVariables(expr: string, values: Readonly<Record<string, string>> = {}): string {
  return expr
    .replace(/\$__rate_interval|\$__interval/g, values['__rate_interval'] ?? '1m')
    .replace(/\$__range/g, '1h')
    .replace(/\$\{?(\w+)\}?/g, (_, name: string) => values[name] ?? '.*');
}
