import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { loadConfig } from '../../src/runtime/config/loadConfig.js';
import { createLogger } from '../../src/runtime/operations/logging/createLogger.js';
import { runBot } from '../../src/runtime/bot/runBot.js';
import { revokeSigner } from '../../src/runtime/account/revokeSigner.js';
import { systemClock } from '../../src/core/clock.js';
import type { Engine } from '../../src/engine/engine.js';
import type { IntentOutcome } from '../../src/engine/intents/intentOutcome.js';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import { fundedAccount, grantAllowance } from './support/simAccount.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const JOURNAL_DIR = mkdtempSync(join(tmpdir(), 'perpbot-runbot-'));
let journals = 0;
afterAll(() => rmSync(JOURNAL_DIR, { recursive: true, force: true }));

function configText(strategy: string, extra = ''): string {
  return `${extra}
venue: { profile: sim, rest_url: http://127.0.0.1:1, ws_url: ws://127.0.0.1:1/ws }
risk:
  max_order_notional: "100000"
  max_position_per_market: "1000000"
  max_open_orders: 50
  max_actions_per_second: 200
  kill_switch: { max_loss: "1000" }
strategies:
${strategy}
logging: { level: info, pretty: false }
sim: { block_ms: 50 }
journal: { path: ${JSON.stringify(join(JOURNAL_DIR, `journal-${++journals}.sqlite`))} }
`;
}

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

/** A strategies root for this file: the repository's market maker and the faulty test strategy. */
function testStrategiesRoot(): string {
  const dir = join(JOURNAL_DIR, 'root');
  mkdirSync(join(dir, 'strategies'), { recursive: true });
  writeFileSync(
    join(dir, 'strategies', 'marketMaker.ts'),
    `export { default } from ${JSON.stringify(join(ROOT, 'strategies', 'marketMaker.ts'))};\n`,
  );
  writeFileSync(
    join(dir, 'strategies', 'faulty.ts'),
    `export { default } from ${JSON.stringify(new URL('./support/faultyStrategy.ts', import.meta.url).pathname)};\n`,
  );
  return dir;
}

async function runFor(
  sim: RunningSim,
  strategy: string,
  drive: (engine: Engine, outcomes: IntentOutcome[], lines: string[]) => Promise<void>,
  options: { jwt?: boolean; root?: string } = {},
) {
  const who = await fundedAccount(sim);
  if (options.jwt === true) await grantAllowance(who);
  const anchorAfterSetup = (await who.rest.nonceState(who.account)).nonce_anchor;
  const config = await loadConfig({
    text: configText(strategy, options.jwt === true ? 'auth: { mode: jwt }' : ''),
    env: {},
  });
  const lines: string[] = [];
  const controller = new AbortController();
  const outcomes: IntentOutcome[] = [];
  let ready!: (engine: Engine) => void;
  const started = new Promise<Engine>((r) => (ready = r));
  const running = runBot({
    config,
    keys: {
      account: { address: who.account, privateKey: who.accountKey },
      signer: { address: who.signer.address, privateKey: who.signerKey },
    },
    restUrl: sim.restUrl,
    wsUrl: sim.wsUrl,
    logger: memoryLogger(lines),
    signal: controller.signal,
    root: options.root ?? ROOT,
    onReady: ({ engine }) => {
      engine.outcomes$.subscribe((o) => outcomes.push(o));
      ready(engine);
    },
  });
  const engine = await Promise.race([
    started,
    running.then(() => {
      throw new Error('runBot ended early');
    }),
  ]);
  await drive(engine, outcomes, lines);
  controller.abort();
  await running;
  return { who, lines, outcomes, anchorAfterSetup };
}

async function until(check: () => boolean | Promise<boolean>, ms = 8000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`condition not met in time: ${check.toString().slice(0, 120)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A placement, or a replacement (a quote target's move of an order: its outcome is the new order's). */
function placedAnOrder(o: IntentOutcome): boolean {
  return o.kind === 'placeLimit' || o.kind === 'replace';
}

describe('runBot on the simulator', () => {
  let sim: RunningSim;
  beforeEach(async () => {
    sim = await startSim({ port: 0, blockMs: 50, registrationLagMs: 0 });
  });
  afterEach(async () => {
    await sim.close();
  });

  it('market maker quotes both sides, requotes on a move, and cancels its orders on shutdown', async () => {
    const { who, outcomes, lines } = await runFor(
      sim,
      `  - name: mm
    module: strategies/marketMaker.ts
    markets: [1]
    params: { size: "0.001", spread_bps: 20, requote_bps: 5, max_inventory: "0.01", skew_bps: 10 }`,
      async (engine, seen) => {
        await until(() => engine.tracker.openOrders({ strategy: 'mm' }).filter((o) => o.state === 'open').length === 2);
        const sides = engine.tracker
          .openOrders({ strategy: 'mm' })
          .map((o) => o.side)
          .sort();
        expect(sides).toEqual(['buy', 'sell']);
        const mark = engine.market(1)!.mark_price;
        sim.controls.setMark(1, (Number(mark) * 1.01).toFixed(1));
        // The requote: each quote moved (its quote target's replacement: the old one cancelled, a new
        // one placed; on a loaded machine the placements can land well after the first cancel's answer).
        await until(
          () =>
            seen.some((o) => o.kind === 'cancel' && o.type === 'accepted') &&
            seen.filter((o) => placedAnOrder(o) && o.type === 'accepted').length >= 4,
        );
      },
    );
    expect(outcomes.filter((o) => placedAnOrder(o) && o.type === 'accepted').length).toBeGreaterThanOrEqual(4);
    const left = (await who.rest.openOrders({ account: who.account, market_id: '1' })).orders;
    if (left.length > 0)
      console.log(JSON.stringify(left), lines.filter((l) => /shutdown|cancel|stopping|open orders/.test(l)).join('\n'));
    expect(left).toHaveLength(0);
  }, 30_000);

  it('grid places buys below and sells above the mark, leaving the level nearest it empty', async () => {
    const mark = Number(
      (await (await fundedAccount(sim, { register: false })).rest.markets()).markets.find((m) => m.market_id === '1')!
        .mark_price,
    );
    const lower = (mark * 0.9).toFixed(1);
    const upper = (mark * 1.1).toFixed(1);
    await runFor(
      sim,
      `  - name: grid
    module: strategies/grid.ts
    markets: [1]
    params: { lower: "${lower}", upper: "${upper}", levels: 6, size: "0.0002" }`,
      async (engine) => {
        await until(
          () => engine.tracker.openOrders({ strategy: 'grid' }).filter((o) => o.state === 'open').length === 5,
        );
        const orders = engine.tracker.openOrders({ strategy: 'grid' });
        for (const o of orders) expect(o.side === 'buy' ? Number(o.price) < mark : Number(o.price) > mark).toBe(true);
      },
    );
  }, 30_000);

  it('momentum taker enters on a move and closes on the stop loss', async () => {
    await runFor(
      sim,
      `  - name: mo
    module: strategies/momentumTaker.ts
    markets: [1]
    params: { size: "0.001", lookback_blocks: 2, entry_bps: 20, stop_loss_bps: 30, take_profit_bps: 500, cooldown_blocks: 2 }`,
      async (engine, seen) => {
        const mark = Number(engine.market(1)!.mark_price);
        // Let the strategy fill its lookback window before the move.
        await new Promise((r) => setTimeout(r, 400));
        sim.controls.setMark(1, (mark * 1.01).toFixed(1));
        await until(() => seen.some((o) => o.kind === 'placeMarket' && o.type === 'accepted'));
        await until(() => (engine.tracker.position(1)?.size ?? '0') !== '0');
        sim.controls.setMark(1, (mark * 0.99).toFixed(1));
        await until(() => seen.some((o) => o.kind === 'closePosition' && o.type === 'accepted'));
      },
    );
  }, 30_000);

  it('trades in JWT mode: no permits, the Bearer token authorises every action', async () => {
    const { who, anchorAfterSetup } = await runFor(
      sim,
      `  - name: mm
    module: strategies/marketMaker.ts
    markets: [1]
    params: { size: "0.001", spread_bps: 20, requote_bps: 5, max_inventory: "0.01", skew_bps: 10 }`,
      async (engine) => {
        await until(() => engine.tracker.openOrders({ strategy: 'mm' }).filter((o) => o.state === 'open').length === 2);
      },
      { jwt: true },
    );
    // No permit was signed: the nonce state never moved.
    expect((await who.rest.nonceState(who.account)).nonce_anchor).toBe(anchorAfterSetup);
    expect((await who.rest.openOrders({ account: who.account, market_id: '1' })).orders).toHaveLength(0);
  }, 30_000);

  it('runs two strategies side by side, each on its own params, markets and budget: the one that throws is stopped and the other goes on', async () => {
    const failed = (lines: string[]) =>
      lines.some((l) => l.includes('"strategy":"faulty"') && l.includes('"msg":"strategy failed and was stopped"'));
    const { who, outcomes, lines } = await runFor(
      sim,
      `  - name: mm
    module: strategies/marketMaker.ts
    markets: [1]
    params: { size: "0.001", spread_bps: 20, requote_bps: 5, max_inventory: "0.01", skew_bps: 10 }
    risk: { max_open_orders: 6 }
  - name: faulty
    module: strategies/faulty.ts
    markets: [2]
    params: { size: "0.01", offset_bps: 100, fault: nested, oversize: "0.02" }
    risk: { max_order_notional: "50" }
    on_error: cancel`,
      async (engine, seen, logged) => {
        await until(() => failed(logged));
        // on_error: cancel: the failed strategy's bid goes; the market maker's quotes stay.
        await until(() => engine.tracker.openOrders({ strategy: 'faulty' }).length === 0);
        const accepted = () =>
          seen.filter((o) => o.strategy === 'mm' && placedAnOrder(o) && o.type === 'accepted').length;
        const before = accepted();
        sim.controls.setMark(1, (Number(engine.market(1)!.mark_price) * 1.01).toFixed(1));
        await until(() => accepted() > before);
      },
      { root: testStrategiesRoot() },
    );
    // faulty's second bid (0.02 x ~3168 = ~63 USDC) is over its own budget of 50; mm's 65 USDC quotes are not judged by it.
    const refused = lines
      .map((l) => JSON.parse(l) as { msg: string; strategy?: string; rule?: string; reason?: string })
      .filter((l) => l.msg === 'intent refused');
    expect(refused.map((l) => [l.strategy, l.rule])).toEqual([['faulty', 'max_order_notional']]);
    expect(refused[0]?.reason).toMatch(/^strategy faulty's budget: order notional 63\.\d+ exceeds the limit of 50/);
    expect(
      outcomes.filter((o) => o.strategy === 'mm' && placedAnOrder(o) && o.type === 'accepted').length,
    ).toBeGreaterThanOrEqual(4);
    expect(outcomes.filter((o) => o.strategy === 'faulty' && o.type === 'accepted').map((o) => o.kind)).toEqual([
      'placeLimit',
      'cancel',
    ]);
    const failure = JSON.parse(lines.find((l) => l.includes('"msg":"strategy failed and was stopped"'))!) as {
      strategy: string;
      onError: string;
      err: { message: string };
    };
    expect(failure).toMatchObject({
      strategy: 'faulty',
      onError: 'cancel',
      err: { message: 'faulty: bug in a nested subscription' },
    });
    expect((await who.rest.openOrders({ account: who.account, market_id: '2' })).orders).toHaveLength(0);
  }, 30_000);

  it('stops and rejects with FEED_LOST when a private feed fails for good (the signer revoked while running)', async () => {
    const who = await fundedAccount(sim);
    const config = await loadConfig({
      text: configText(
        `  - name: mm\n    module: strategies/marketMaker.ts\n    markets: [1]\n    params: { size: "0.001", spread_bps: 20, requote_bps: 5, max_inventory: "0.01", skew_bps: 10 }`,
      ),
      env: {},
    });
    const lines: string[] = [];
    let ready!: (engine: Engine) => void;
    const started = new Promise<Engine>((r) => (ready = r));
    const running = runBot({
      config,
      keys: { account: { address: who.account }, signer: { address: who.signer.address, privateKey: who.signerKey } },
      restUrl: sim.restUrl,
      wsUrl: sim.wsUrl,
      logger: memoryLogger(lines),
      signal: new AbortController().signal, // never aborted: the lost feed alone stops the bot
      root: ROOT,
      onReady: ({ engine }) => ready(engine),
    });
    const ended = running.then(
      () => 'resolved',
      (error: unknown) => error,
    );
    const engine = await Promise.race([
      started,
      ended.then(() => {
        throw new Error('runBot ended early');
      }),
    ]);
    // Once the quotes landed, the bot's permits use the venue's current anchor, so the revocation's
    // setup nonce (current + 1, bit 0) cannot collide with one of them.
    await until(() => engine.tracker.openOrders({ strategy: 'mm' }).filter((o) => o.state === 'open').length === 2);
    await revokeSigner({
      rest: who.rest,
      account: who.accountSigner,
      signer: who.signer.address,
      clock: systemClock,
      log: { info() {}, warn() {} },
    });
    expect(await ended).toMatchObject({
      code: 'FEED_LOST',
      message: expect.stringMatching(/^the (orders|positions|fills|account) feed failed: WebSocket auth refused/),
    });
    const messages = lines.map((l) => (JSON.parse(l) as { msg: string }).msg);
    expect(messages).toContain('a venue feed failed: stopping the bot');
    expect(messages.indexOf('stopping')).toBeGreaterThan(messages.indexOf('a venue feed failed: stopping the bot'));
  }, 30_000);
});
