import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IntentOutcome } from '../../src/engine/intents/intentOutcome.js';
import type { Engine } from '../../src/engine/engine.js';
import { loadConfig } from '../../src/runtime/config/loadConfig.js';
import { createLogger } from '../../src/runtime/operations/logging/createLogger.js';
import { runBot } from '../../src/runtime/bot/runBot.js';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import { fundedAccount } from './support/simAccount.js';

/**
 * The bundled market maker on config/default.yaml (`risk.max_actions_per_second: 5`) on the
 * simulator: its requotes (cancel, cancel, place, place) wait on the rate limit, and the engine
 * holds them as queued orders the next requote cancels, so no quote is left behind to rest. The
 * venue's own book is sampled every 100 ms. 15 s (60 blocks) in the suite, for the real wire: the
 * same rule is held over many more requotes in virtual time (test/strategies/examplesInVirtualTime),
 * and `npm run soak:quotes` runs 5 minutes.
 */
const ROOT = new URL('../../', import.meta.url).pathname;
const RUN_MS = Number(process.env['QUOTES_SOAK_MS'] ?? 15_000);
const DIR = mkdtempSync(join(tmpdir(), 'perpbot-quotes-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

function defaultConfigText(): string {
  return readFileSync(join(ROOT, 'config/default.yaml'), 'utf8')
    .replace('path: data/journal.sqlite', `path: ${JSON.stringify(join(DIR, 'journal.sqlite'))}`)
    .replace(/level: info/, 'level: warn')
    .replace(/pretty: auto/, 'pretty: false');
}

describe('market maker quotes under the rate limit, on the simulator', () => {
  let sim: RunningSim;
  beforeEach(async () => {
    // As config/default.yaml's sim section: a block every 250 ms, seed 1.
    sim = await startSim({ port: 0, blockMs: 250, registrationLagMs: 0, seed: 1 });
  });
  afterEach(async () => {
    await sim.close();
  });

  it(
    'never rests more than its two quotes but for those being replaced, and is never refused MAX_OPEN_ORDERS',
    async () => {
      const config = await loadConfig({ text: defaultConfigText(), env: {} });
      expect(config.risk.max_actions_per_second).toBe(40);
      const who = await fundedAccount(sim);
      const controller = new AbortController();
      const outcomes: IntentOutcome[] = [];
      let engine: Engine | undefined;
      const running = runBot({
        config,
        keys: {
          account: { address: who.account, privateKey: who.accountKey },
          signer: { address: who.signer.address, privateKey: who.signerKey },
        },
        restUrl: sim.restUrl,
        wsUrl: sim.wsUrl,
        logger: createLogger({ level: 'warn', pretty: false, destination: { write: () => true } }),
        signal: controller.signal,
        root: ROOT,
        onReady: (bot) => {
          engine = bot.engine;
          bot.engine.outcomes$.subscribe((o) => outcomes.push(o));
        },
      });
      const resting: number[] = [];
      let maxQueued = 0;
      const started = Date.now();
      while (Date.now() - started < RUN_MS) {
        await new Promise((r) => setTimeout(r, 100));
        if (engine === undefined) continue;
        resting.push(sim.context.exchange.openOrders(who.account, 1).length);
        maxQueued = Math.max(maxQueued, engine.queuedOrders().get('market-maker') ?? 0);
      }
      controller.abort();
      await running;

      const quoting = resting.filter((n) => n > 0);
      const overTwo = quoting.filter((n) => n > 2).length;
      const refusals = outcomes
        .filter((o) => o.type === 'refused')
        .map((o) => (o.type === 'refused' ? o.refusal.rule : ''));
      const figures = {
        samples: quoting.length,
        atMostTwoPct: quoting.length === 0 ? 0 : (100 * (quoting.length - overTwo)) / quoting.length,
        maxResting: Math.max(0, ...resting),
        maxQueued,
        placements: outcomes.filter((o) => o.kind === 'placeLimit').length,
        cancelledQueued: refusals.filter((r) => r === 'cancelled_queued').length,
        maxOpenOrdersRefusals: refusals.filter((r) => r === 'max_open_orders').length,
      };
      console.log(`market maker quotes: ${JSON.stringify(figures)}`);
      // Enough samples with quotes resting for the share below to mean something (how many depends
      // on the machine's load: a loaded one samples less often and requotes more slowly).
      expect(quoting.length).toBeGreaterThan(20);
      expect(figures.atMostTwoPct).toBeGreaterThanOrEqual(99);
      // Its two quotes, and at most the two they replace while those cancels are on their way.
      expect(figures.maxResting).toBeLessThanOrEqual(4);
      expect(figures.maxOpenOrdersRefusals).toBe(0);
    },
    RUN_MS + 60_000,
  );
});
