import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Engine } from '../../../src/engine/engine.js';
import { startSim, type RunningSim } from '../../../src/sim/startSim.js';
import { startBotOnSim } from './journalBot.js';
import { fundedAccount, type SimAccount } from './simAccount.js';

export const CONTROL_TOKEN = 'test-control-token-0123456789abcdef';

export interface ServiceBot {
  readonly engine: Engine;
  /** The control server's base URL. */
  readonly url: string;
  readonly lines: string[];
  readonly journal: string;
  stop(): Promise<void>;
}

/** A strategies root in `dir` whose strategies/serviceProbe.ts re-exports the service probe. */
export function prepareServiceRoot(dir: string): void {
  mkdirSync(join(dir, 'strategies'), { recursive: true });
  writeFileSync(
    join(dir, 'strategies', 'serviceProbe.ts'),
    `export { default } from ${JSON.stringify(new URL('./serviceProbeStrategy.ts', import.meta.url).pathname)};\n`,
  );
}

export function serviceBotConfig(dir: string, strategies: string, extra = ''): string {
  return `
venue: { profile: sim, rest_url: http://127.0.0.1:1, ws_url: ws://127.0.0.1:1/ws }
risk:
  max_order_notional: "100000"
  max_position_per_market: "1000000"
  max_open_orders: 50
  max_actions_per_second: 200
  kill_switch: { max_loss: "1000" }
strategies:
${strategies}
logging: { level: info, pretty: false }
journal: { path: ${JSON.stringify(join(dir, 'journal.sqlite'))} }
control: { port: 0 }
${extra}`;
}

/** runBot on the simulator with the control server on a free port; resolves once the bot runs. */
export async function startServiceBot(
  sim: RunningSim,
  who: SimAccount,
  dir: string,
  text: string,
  options: { readonly env?: Record<string, string>; readonly restUrl?: string } = {},
): Promise<ServiceBot> {
  let url: string | undefined;
  const bot = await startBotOnSim(sim, who, text, dir, {
    ...(options.restUrl === undefined ? {} : { restUrl: options.restUrl }),
    env: options.env ?? { PERPBOT_CONTROL_TOKEN: CONTROL_TOKEN },
    onControlServer: (u) => (url = u),
  });
  if (url === undefined) {
    await bot.stop();
    throw new Error('the control server did not report its URL');
  }
  return { ...bot, url, journal: join(dir, 'journal.sqlite') };
}

/** A service bot on a simulator of its own, in a fresh directory; `close` ends all three. */
export interface ServiceBotOnSim {
  readonly sim: RunningSim;
  readonly dir: string;
  readonly bot: ServiceBot;
  /** The bot's config as it runs it. */
  readonly config: string;
  close(): Promise<void>;
}

export async function serviceBotOnSim(
  strategies: string,
  options: { readonly blockMs?: number; readonly edit?: (config: string) => string } = {},
): Promise<ServiceBotOnSim> {
  const sim = await startSim({ port: 0, blockMs: options.blockMs ?? 50, registrationLagMs: 0 });
  const dir = mkdtempSync(join(tmpdir(), 'perpbot-service-'));
  prepareServiceRoot(dir);
  const config = (options.edit ?? ((c) => c))(serviceBotConfig(dir, strategies));
  const bot = await startServiceBot(sim, await fundedAccount(sim), dir, config);
  const close = async (): Promise<void> => {
    await bot.stop();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { sim, dir, bot, config, close };
}

/** Prometheus text exposition -> samples; throws on a line that is not valid exposition. */
export function parsePrometheus(
  text: string,
): { readonly name: string; readonly labels: Record<string, string>; readonly value: number }[] {
  const samples: { name: string; labels: Record<string, string>; value: number }[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('# HELP ')) continue;
    if (line.startsWith('# TYPE ')) {
      const [name, type] = line.slice(7).split(' ');
      if (name === undefined || !['counter', 'gauge', 'histogram', 'summary', 'untyped'].includes(type ?? ''))
        throw new Error(`bad TYPE line: ${line}`);
      types.set(name, type as string);
      continue;
    }
    // Values as Prometheus reads them (Go's ParseFloat: NaN and Inf in any case; prom-client writes "Nan").
    const match =
      /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?(?:\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|[Nn][Aa][Nn]|[+-]?[Ii][Nn][Ff]))(?: -?\d+)?$/.exec(
        line,
      );
    if (match === null) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    const labelText = match[2] ?? '';
    for (const pair of labelText.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
      labels[pair[1] as string] = (pair[2] as string).replace(/\\(.)/g, '$1');
    const name = match[1] as string;
    const family = name.replace(/_(bucket|sum|count|total)$/, '');
    if (!types.has(name) && !types.has(family)) throw new Error(`sample ${name} has no TYPE line`);
    const raw = (match[3] as string).toLowerCase();
    samples.push({
      name,
      labels,
      value:
        raw === 'nan' ? Number.NaN : raw.endsWith('inf') ? (raw.startsWith('-') ? -Infinity : Infinity) : Number(raw),
    });
  }
  return samples;
}

export function sumOf(
  samples: ReturnType<typeof parsePrometheus>,
  name: string,
  where: Record<string, string> = {},
): number {
  return samples
    .filter((s) => s.name === name && Object.entries(where).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}
