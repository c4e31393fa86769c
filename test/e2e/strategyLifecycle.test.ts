import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/runtime/config/loadConfig.js';
import { openJournal } from '../../src/journal/openJournal.js';
import { createLogger } from '../../src/runtime/operations/logging/createLogger.js';
import { runBot } from '../../src/runtime/bot/runBot.js';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import { isFlatPosition } from '../../src/venue/schemas/restAccount.js';
import { fundedAccount } from './support/simAccount.js';
import { until } from './support/journalBot.js';

/**
 * The strategy lifecycle on the simulator: run() starts with a mark and a book already there, a
 * strategy that declares itself done stops the bot (shutdown.when_all_done: stop), and the intents
 * its onStop returns (closing its position) run before the bot shuts down.
 */
const ROOT = new URL('../../', import.meta.url).pathname;
const DIR = mkdtempSync(join(tmpdir(), 'perpbot-lifecycle-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

const STRATEGY = `
import { combineLatest, concat, filter, ignoreElements, of, take, tap, defer } from 'rxjs';
import { z } from 'zod';
import { defineStrategy, forIntent, isTerminalOrderEvent } from ${JSON.stringify(join(ROOT, 'src/strategy/index.ts'))};

/** Buys at market once, waits for its position, declares itself done; onStop closes the position. */
export default defineStrategy({
  name: 'flatten-on-stop',
  description: 'e2e probe',
  params: z.object({ size: z.string() }),
  run: (ctx) =>
    defer(() => {
      let first;
      combineLatest([ctx.streams.mark(1), ctx.streams.book(1)]).pipe(take(1)).subscribe((v) => (first = v));
      ctx.log.info({ sawMarkAndBookAtOnce: first !== undefined, bookLevels: first === undefined ? 0 : first[1].bids.length + first[1].asks.length }, 'probe: run subscribed');
      const buy = ctx.intents.placeMarket({ marketId: 1, side: 'buy', size: ctx.params.size });
      return concat(
        of(buy),
        ctx.orderEvents.pipe(filter(forIntent(buy.intentId)), tap((e) => ctx.log.info({ event: e.type, filled: e.filledSize }, 'probe: order event')), filter(isTerminalOrderEvent), take(1), ignoreElements()),
        ctx.streams.positions().pipe(
          filter((ps) => ps.some((p) => p.marketId === 1 && p.size !== '0')),
          take(1),
          tap((ps) => {
            ctx.log.info({ position: ps.find((p) => p.marketId === 1), pnl: ctx.pnl.own() }, 'probe: position');
            ctx.done('bought');
          }),
          ignoreElements(),
        ),
      );
    }),
  onStop: (ctx) => (ctx.state.position(1) === undefined ? [] : [ctx.intents.closePosition({ marketId: 1 })]),
});
`;

function memoryLogger(lines: string[]) {
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
  return createLogger({ level: 'info', pretty: false, destination });
}

describe('strategy lifecycle on the simulator', () => {
  let sim: RunningSim;
  beforeEach(async () => {
    sim = await startSim({ port: 0, blockMs: 50, registrationLagMs: 0 });
  });
  afterEach(async () => {
    await sim.close();
  });

  it('starts run() with a mark and a book, stops the bot when the strategy is done, and flattens its position in onStop', async () => {
    mkdirSync(join(DIR, 'strategies'), { recursive: true });
    writeFileSync(join(DIR, 'strategies', 'flatten.ts'), STRATEGY);
    const who = await fundedAccount(sim);
    const config = await loadConfig({
      text: `
venue: { profile: sim, rest_url: http://127.0.0.1:1, ws_url: ws://127.0.0.1:1/ws }
risk: { max_order_notional: "100000", max_position_per_market: "1000000", max_open_orders: 50, max_actions_per_second: 200, kill_switch: { max_loss: "1000" } }
strategies:
  - name: probe
    module: strategies/flatten.ts
    markets: [1]
    params: { size: "0.001" }
shutdown: { when_all_done: stop, timeout_ms: 10000 }
logging: { level: info, pretty: false }
journal: { path: ${JSON.stringify(join(DIR, 'journal.sqlite'))} }
`,
      env: {},
    });
    // The synthetic makers quote from their first blocks: under load a bot could subscribe before,
    // and its strategy would start on an empty book, which is the venue's, not the bot's, doing.
    await until(() => {
      const book = sim.context.exchange.book(1);
      return book.bids.length > 0 && book.asks.length > 0;
    }, 10_000);
    const lines: string[] = [];
    const signal = new AbortController();
    const safety = setTimeout(() => signal.abort(), 25_000);
    // No abort from the test: the bot stops by itself once the strategy is done.
    await runBot({
      config,
      keys: {
        account: { address: who.account, privateKey: who.accountKey },
        signer: { address: who.signer.address, privateKey: who.signerKey },
      },
      restUrl: sim.restUrl,
      wsUrl: sim.wsUrl,
      logger: memoryLogger(lines),
      signal: signal.signal,
      root: DIR,
    });
    clearTimeout(safety);
    const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    // Its last lines say where it stopped when the bot did not stop by itself.
    expect(signal.signal.aborted, lines.slice(-40).join('\n')).toBe(false);
    expect(logged.find((l) => l['msg'] === 'probe: run subscribed')).toMatchObject({ sawMarkAndBookAtOnce: true });
    expect((logged.find((l) => l['msg'] === 'probe: run subscribed')?.['bookLevels'] as number) > 0).toBe(true);
    // The market order may take one maker level or several: from when the strategy listens (queued
    // and submitted, when it hears them), placed, then partial fills (if any), then filled.
    const events = logged.filter((l) => l['msg'] === 'probe: order event').map((l) => l['event']);
    expect(events.join(',')).toMatch(/^(queued,)?(submitted,)?placed(,partially_filled)*,filled$/);
    const position = logged.find((l) => l['msg'] === 'probe: position') as {
      position: Record<string, string>;
      pnl: Record<string, string>;
    };
    expect(position.position).toMatchObject({ side: 'buy', size: '0.001', signedSize: '0.001' });
    expect(position.position['markPrice']).toMatch(/^\d/);
    expect(position.position['unrealizedPnl']).toMatch(/^-?\d/);
    expect(Number(position.pnl['fees'])).toBeGreaterThan(0);
    expect(logged.some((l) => l['msg'] === 'every strategy is done: stopping (shutdown.when_all_done: stop)')).toBe(
      true,
    );
    expect(logged.find((l) => l['msg'] === 'final intents of the strategy sent')).toMatchObject({
      sent: 1,
      settled: 1,
      timedOut: false,
    });
    // onStop's closePosition ran before the shutdown: the account is flat on the venue.
    expect(isFlatPosition(await who.rest.position({ account: who.account, market_id: '1' }))).toBe(true);
    // Every venue fill, the close's included, is journaled as the strategy's.
    const journal = openJournal(join(DIR, 'journal.sqlite'), { readonly: true });
    const journaled = journal.recentFills(1000, who.account);
    journal.close();
    const venueFills = (await who.rest.tradeHistory({ account: who.account })).trades;
    expect(journaled.map((f) => f.fillId).sort()).toEqual(venueFills.map((f) => f.id).sort());
    expect(new Set(journaled.map((f) => f.strategy))).toEqual(new Set(['probe']));
    expect(new Set(journaled.map((f) => f.side))).toEqual(new Set(['buy', 'sell']));
  }, 40_000);
});
