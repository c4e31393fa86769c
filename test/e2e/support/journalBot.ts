import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { Clock } from '../../../src/core/clock.js';
import type { Engine } from '../../../src/engine/engine.js';
import { loadConfig } from '../../../src/runtime/config/loadConfig.js';
import { createLogger } from '../../../src/runtime/operations/logging/createLogger.js';
import { runBot } from '../../../src/runtime/bot/runBot.js';
import type { RunningSim } from '../../../src/sim/startSim.js';
import type { SimAccount } from './simAccount.js';

/**
 * Runs the whole bot (runBot) with a journal in `dir` and the journal-probe strategy, for the
 * journal's e2e tests. `dir` doubles as the strategies root: strategies/journalProbe.ts there
 * re-exports the probe from test/e2e/support.
 */
export interface JournalBot {
  readonly engine: Engine;
  readonly lines: string[];
  stop(): Promise<void>;
}

export function journalBotConfig(dir: string, extra = ''): string {
  return `
venue: { profile: sim, rest_url: http://127.0.0.1:1, ws_url: ws://127.0.0.1:1/ws }
risk:
  max_order_notional: "100000"
  max_position_per_market: "1000000"
  max_open_orders: 50
  max_actions_per_second: 200
  kill_switch: { max_loss: "1000" }
strategies:
  - name: probe
    module: strategies/journalProbe.ts
    markets: [1]
    params: { bids: ["64000", "63000"], size: "0.0005" }
logging: { level: info, pretty: false }
shutdown: { open_orders: keep }
journal: { path: ${JSON.stringify(join(dir, 'journal.sqlite'))} }
sim: { block_ms: 60000 }
${extra}`;
}

export function prepareProbeRoot(dir: string): void {
  mkdirSync(join(dir, 'strategies'), { recursive: true });
  const target = new URL('./journalProbeStrategy.ts', import.meta.url).pathname;
  writeFileSync(join(dir, 'strategies', 'journalProbe.ts'), `export { default } from ${JSON.stringify(target)};\n`);
}

export function startJournalBot(sim: RunningSim, who: BotAccount, dir: string, extra = ''): Promise<JournalBot> {
  return startBotOnSim(sim, who, journalBotConfig(dir, extra), dir);
}

type BotAccount = Pick<SimAccount, 'account' | 'signer' | 'signerKey'> & Partial<Pick<SimAccount, 'accountKey'>>;

export interface BotOnSimOptions {
  /** Another REST address in front of the simulator (a faulty proxy); default the simulator's. */
  readonly restUrl?: string;
  /** The bot's environment (e.g. the control server's token). */
  readonly env?: Record<string, string>;
  /** The control server's URL, when the config turns it on. */
  readonly onControlServer?: (url: string) => void;
  /** The bot's clock (the simulator's too, for virtual time); default the system clock. */
  readonly clock?: Clock;
}

/**
 * The whole bot (runBot) on the simulator with the config `text`, strategies resolved from
 * `root`, its JSON log lines kept; resolves once the bot is ready, rejects if it ends before.
 */
export async function startBotOnSim(
  sim: RunningSim,
  who: BotAccount,
  text: string,
  root: string,
  options: BotOnSimOptions = {},
): Promise<JournalBot> {
  const config = await loadConfig({ text, env: {} });
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      lines.push(
        ...chunk
          .toString()
          .split('\n')
          .filter((l: string) => l.length > 0),
      );
      done();
    },
  });
  const controller = new AbortController();
  let ready!: (engine: Engine) => void;
  const started = new Promise<Engine>((r) => (ready = r));
  const running = runBot({
    config,
    keys: {
      account: { address: who.account, ...(who.accountKey === undefined ? {} : { privateKey: who.accountKey }) },
      signer: { address: who.signer.address, privateKey: who.signerKey },
    },
    restUrl: options.restUrl ?? sim.restUrl,
    wsUrl: sim.wsUrl,
    logger: createLogger({ level: 'info', pretty: false, destination }),
    signal: controller.signal,
    root,
    ...(options.env === undefined ? {} : { env: options.env }),
    ...(options.onControlServer === undefined ? {} : { onControlServer: options.onControlServer }),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    onReady: ({ engine }) => ready(engine),
  });
  const engine = await Promise.race([
    started,
    running.then(() => Promise.reject(new Error(`runBot ended early:\n${lines.slice(-5).join('\n')}`))),
  ]);
  return {
    engine,
    lines,
    stop: async () => {
      controller.abort();
      await running;
    },
  };
}

export async function until(check: () => boolean | Promise<boolean>, ms = 8000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`condition not met in time: ${check.toString().slice(0, 160)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
