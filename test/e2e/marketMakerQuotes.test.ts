import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IntentOutcome } from '../../src/engine/intents/intentOutcome.js';
import { loadConfig } from '../../src/runtime/config/loadConfig.js';
import type { BotStatus } from '../../src/runtime/operations/control/botStatus.js';
import { createLogger } from '../../src/runtime/operations/logging/createLogger.js';
import { runBot } from '../../src/runtime/bot/runBot.js';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import { fundedAccount } from './support/simAccount.js';

/**
 * The bundled market maker on config/default.yaml on the simulator, the venue's own open orders
 * read over REST every 200 ms (not the bot's view): both quotes rest nearly all the time, never
 * more than two orders rest, and the quote uptime `/api/status` reports agrees with the sampling.
 * 15 s in the suite; `npm run soak:quotes` runs the 2 minutes (QUOTES_SOAK_MS=120000).
 */
const ROOT = new URL('../../', import.meta.url).pathname;
const RUN_MS = Number(process.env['QUOTES_SOAK_MS'] ?? 15_000);
/**
 * Each requote leaves a side empty for a round trip (a cancel's answer, then the new order's): on
 * an idle machine ~99 % of samples hold both quotes (2 minutes: docs/strategy-guide.md), and the
 * soak (an idle machine) asks for the 97 %. The suite runs this beside three other busy workers on
 * two cores, where those round trips stretch with the load (p50 45 ms locally, 94.6 % of samples;
 * a CI run held both in 85.7 %): its 15 s sample asks for 80 %, which the old cancel-then-place
 * requote (78 % idle) still fails. How fast the quotes come back is a speed figure, and the bench
 * measures it (`quote_uptime`); here the checks that hold at any speed are the two orders at most
 * and the reported uptime agreeing with the venue's own.
 */
const BOTH_AT_LEAST = process.env['QUOTES_SOAK_MS'] === undefined ? 0.8 : 0.97;
const DIR = mkdtempSync(join(tmpdir(), 'perpbot-quotes-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

function defaultConfigText(): string {
  return readFileSync(join(ROOT, 'config/default.yaml'), 'utf8')
    .replace('path: data/journal.sqlite', `path: ${JSON.stringify(join(DIR, 'journal.sqlite'))}`)
    .replace(/level: info/, 'level: warn')
    .replace(/pretty: auto/, 'pretty: false');
}

interface Sample {
  readonly orders: number;
  readonly both: boolean;
}

describe('market maker quotes on the simulator, config/default.yaml', () => {
  let sim: RunningSim;
  beforeEach(async () => {
    // As config/default.yaml's sim section: a block every 250 ms, seed 1.
    sim = await startSim({ port: 0, blockMs: 250, registrationLagMs: 0, seed: 1 });
  });
  afterEach(async () => {
    await sim.close();
  });

  it(
    'the venue holds both quotes in nearly every 200 ms sample, never more than two orders, and /api/status agrees within 2 points',
    async () => {
      const config = await loadConfig({ text: defaultConfigText(), env: {} });
      // The default action budget, from the venue's published limit.
      expect(config.risk.max_actions_per_second).toBe(40);
      const who = await fundedAccount(sim);
      const controller = new AbortController();
      const outcomes: IntentOutcome[] = [];
      let control: string | undefined;
      let ready = false;
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
        onControlServer: (url) => (control = url),
        onReady: (bot) => {
          ready = true;
          bot.engine.outcomes$.subscribe((o) => outcomes.push(o));
        },
      });
      const venueOpen = async (): Promise<Sample> => {
        const url = `${sim.restUrl}/v1/orders/open?account=${who.account}&market_id=1`;
        const { data } = (await (await fetch(url)).json()) as { data: { orders: { side: number }[] } };
        return { orders: data.orders.length, both: new Set(data.orders.map((o) => o.side)).size === 2 };
      };
      // From the first sample with both quotes: the start-up (funding, reconciling) is not quoting time.
      const samples: Sample[] = [];
      const deadline = Date.now() + RUN_MS + 30_000;
      let startedAt: number | undefined;
      while (Date.now() < deadline && (startedAt === undefined || Date.now() - startedAt < RUN_MS)) {
        const next = Date.now() + 200;
        if (ready) {
          const sample = await venueOpen();
          if (startedAt === undefined && sample.both) startedAt = Date.now();
          if (startedAt !== undefined) samples.push(sample);
        }
        await new Promise((r) => setTimeout(r, Math.max(0, next - Date.now())));
      }
      const status = (await (await fetch(`${control ?? ''}/api/status`)).json()) as BotStatus;
      controller.abort();
      await running;

      const both = samples.filter((s) => s.both).length / samples.length;
      const reported = status.strategies.find((s) => s.name === 'market-maker')?.quoteUptime[0];
      const refused = outcomes
        .filter((o) => o.type === 'refused')
        .map((o) => (o.type === 'refused' ? o.refusal.rule : ''));
      console.log(
        `market maker quotes: ${JSON.stringify({
          samples: samples.length,
          bothPct: (100 * both).toFixed(1),
          maxOrders: Math.max(...samples.map((s) => s.orders)),
          reported,
          refused: refused.filter((r) => r !== 'cancel_target_finished' && r !== 'replace_target_finished'),
        })}`,
      );
      // Enough samples for a share to mean something (a loaded machine samples less often).
      expect(samples.length).toBeGreaterThan((RUN_MS / 200) * 0.6);
      expect(both).toBeGreaterThanOrEqual(BOTH_AT_LEAST);
      expect(Math.max(...samples.map((s) => s.orders))).toBeLessThanOrEqual(2);
      expect(reported?.uptime).not.toBeNull();
      // Sampling every 200 ms estimates a share p with an error of sqrt(p(1-p)/n), p being the share
      // the bot reports (the hypothesis under test; the sampled share's own error is 0 when all 75
      // samples held both quotes, which a true 96 % gives one run in 17). At 2 minutes (600 samples)
      // the 2 points hold with room; a 15 s run gets three of its standard errors.
      const claimed = reported?.uptime ?? 0;
      const sampling = 3 * Math.sqrt((claimed * (1 - claimed)) / samples.length);
      expect(Math.abs(claimed - both)).toBeLessThanOrEqual(Math.max(0.02, sampling));
      expect(refused).not.toContain('max_open_orders');
    },
    RUN_MS + 90_000,
  );
});
