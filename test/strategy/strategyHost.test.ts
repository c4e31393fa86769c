import { Subject, map, mergeMap, EMPTY, NEVER, of, type Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ManualClock } from '../../src/core/clock.js';
import type { IntentOutcome } from '../../src/engine/intents/intentOutcome.js';
import type { Intent } from '../../src/engine/intents/intents.js';
import { SessionLedger } from '../../src/engine/ledger/sessionLedger.js';
import { defineStrategy } from '../../src/strategy/strategyDefinition.js';
import {
  StrategyHost,
  type ExecutionPort,
  type HostLogger,
  type HostedStrategy,
} from '../../src/strategy/strategyHost.js';
import type { StrategyStreams } from '../../src/strategy/strategyContext.js';
import type { FillView, MarkPrice, StateSnapshot } from '../../src/strategy/strategyViews.js';
import { StrategyParamsError } from '../../src/strategy/strategyParamsError.js';
import { currentStrategyScope } from '../../src/strategy/strategyScope.js';

function recordingLogger(
  lines: { level: string; bindings: Record<string, unknown>; obj: object; msg?: string }[],
  bindings: Record<string, unknown> = {},
): HostLogger {
  const at = (level: string) => (obj: object, msg?: string) =>
    lines.push({ level, bindings, obj, ...(msg === undefined ? {} : { msg }) });
  return {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: (b) => recordingLogger(lines, { ...bindings, ...b }),
  };
}

function harness() {
  const marks = new Subject<MarkPrice>();
  const outcomes = new Subject<IntentOutcome>();
  const submitted: Intent[] = [];
  const cancelledFor: string[] = [];
  const execution: ExecutionPort = {
    submit: (intent) => submitted.push(intent),
    outcomes,
    cancelOrdersOf: async (strategy) => {
      cancelledFor.push(strategy);
    },
  };
  const never = <T>() => EMPTY as Observable<T>;
  const streams: StrategyStreams = {
    book: never,
    mark: (marketId) => marks.pipe(mergeMap((m) => (m.marketId === marketId ? of(m) : EMPTY))),
    trades: never,
    fills: never,
    positions: never,
    orders: never,
    balance: never,
    tradingState: never,
  };
  const state: StateSnapshot = {
    markets: () => [],
    market: () => undefined,
    marketConfig: () => undefined,
    position: () => undefined,
    openOrders: () => [],
    balance: () => '1000',
  };
  const lines: Parameters<typeof recordingLogger>[0] = [];
  return { marks, outcomes, submitted, cancelledFor, execution, streams, state, lines, logger: recordingLogger(lines) };
}

const echo = defineStrategy({
  name: 'echo',
  description: 'buys at every mark',
  params: z.object({ size: z.string() }),
  run: (ctx) =>
    ctx.streams
      .mark(1)
      .pipe(
        map((m) => ctx.intents.placeLimit({ marketId: 1, side: 'buy', size: ctx.params.size, price: m.markPrice })),
      ),
});

const exploding = defineStrategy({
  name: 'exploding',
  description: 'throws on the second mark',
  params: z.object({}),
  run: (ctx) =>
    ctx.streams.mark(1).pipe(
      map((m, i) => {
        if (i === 1) throw new Error('strategy bug');
        return ctx.intents.placeLimit({ marketId: 1, side: 'sell', size: '1', price: m.markPrice });
      }),
    ),
});

function hosted(
  definition: HostedStrategy['definition'],
  name: string,
  params: unknown,
  extra: Partial<HostedStrategy> = {},
): HostedStrategy {
  return {
    name,
    definition,
    params,
    markets: [1],
    onError: 'cancel',
    configPath: `strategies[${name}].params`,
    ...extra,
  };
}

describe('StrategyHost', () => {
  it('routes intents stamped with the strategy name and fresh ids to the engine', async () => {
    const h = harness();
    const host = new StrategyHost({
      strategies: [hosted(echo, 'a', { size: '0.1' })],
      streams: h.streams,
      state: h.state,
      execution: h.execution,
      logger: h.logger,
      clock: new ManualClock(),
      runId: 'r1',
    });
    await host.start();
    h.marks.next({ marketId: 1, markPrice: '100', blockNumber: 1 });
    h.marks.next({ marketId: 2, markPrice: '5', blockNumber: 1 });
    h.marks.next({ marketId: 1, markPrice: '101', blockNumber: 2 });
    expect(h.submitted.map((i) => [i.strategy, i.intentId, i.kind === 'placeLimit' ? i.price : ''])).toEqual([
      ['a', 'a-r1-1', '100'],
      ['a', 'a-r1-2', '101'],
    ]);
    await host.stop();
    h.marks.next({ marketId: 1, markPrice: '102', blockNumber: 3 });
    expect(h.submitted).toHaveLength(2);
  });

  it("gives ctx.pnl the engine ledger's figures when given it, and books the fills itself when not", async () => {
    const h = harness();
    const ledger = new SessionLedger(() => '110');
    ledger.onFill({ marketId: 1, side: 'buy', price: '100', size: '2', fee: '0.1', strategy: 'a' });
    ledger.onFill({ marketId: 1, side: 'sell', price: '105', size: '1', fee: '0.1', strategy: 'b' });
    const seen: unknown[] = [];
    const reader = defineStrategy({
      name: 'reader',
      description: 'reads its PnL at start',
      params: z.object({}),
      onStart: (ctx) => void seen.push(ctx.pnl.own().netPnl, ctx.pnl.session().netPnl),
      run: () => NEVER,
    });
    const options = { streams: h.streams, state: h.state, execution: h.execution, logger: h.logger };
    const withLedger = new StrategyHost({
      ...options,
      strategies: [hosted(reader, 'a', {})],
      clock: new ManualClock(),
      runId: 'r1',
      ledger,
    });
    await withLedger.start();
    // a: 2 bought at 100, marked at 110; the account also sold 1 at 105 (against the average entry of 100: +5), 1 left at 110.
    expect(seen).toEqual(['19.9', '14.8']);
    expect(withLedger.pnlOf('a')).toEqual(ledger.strategyPnl('a'));
    await withLedger.stop();

    const fills = new Subject<FillView>();
    const own = new StrategyHost({
      ...options,
      streams: { ...h.streams, fills: () => fills },
      strategies: [hosted(reader, 'a', {})],
      clock: new ManualClock(),
      runId: 'r2',
    });
    await own.start();
    fills.next({
      id: 'f',
      marketId: 1,
      orderId: '0x1',
      side: 'sell',
      price: '10',
      size: '1',
      fee: '0',
      liquidity: 'TAKER',
      strategy: 'a',
      timeMs: 1,
    });
    // No mark in this state: the open lot is unpriced, the fill is booked.
    expect(own.pnlOf('a')).toMatchObject({ realisedPnl: '0', fees: '0', unpricedMarkets: [1] });
    await own.stop();
  });

  it('refuses to start anything when one strategy has bad params, naming the config path', async () => {
    const h = harness();
    const host = new StrategyHost({
      strategies: [
        hosted(echo, 'good', { size: '1' }),
        hosted(echo, 'bad', { size: 5 }, { configPath: 'strategies[1].params' }),
      ],
      streams: h.streams,
      state: h.state,
      execution: h.execution,
      logger: h.logger,
      clock: new ManualClock(),
      runId: 'r',
    });
    await expect(host.start()).rejects.toThrow(StrategyParamsError);
    await expect(host.start()).rejects.toThrow(/^config error at strategies\[1\]\.params\.size: .*\(strategy bad\)/);
    h.marks.next({ marketId: 1, markPrice: '100', blockNumber: 1 });
    expect(h.submitted).toHaveLength(0);
  });

  it('stops a strategy that throws, cancels its orders per on_error, and keeps the others running', async () => {
    const h = harness();
    const host = new StrategyHost({
      strategies: [hosted(exploding, 'boom', {}), hosted(echo, 'steady', { size: '1' }, { onError: 'keep' })],
      streams: h.streams,
      state: h.state,
      execution: h.execution,
      logger: h.logger,
      clock: new ManualClock(),
      runId: 'r',
    });
    await host.start();
    h.marks.next({ marketId: 1, markPrice: '100', blockNumber: 1 });
    h.marks.next({ marketId: 1, markPrice: '101', blockNumber: 2 });
    await new Promise((r) => setImmediate(r));
    h.marks.next({ marketId: 1, markPrice: '102', blockNumber: 3 });
    expect(host.statuses().get('boom')).toBe('failed');
    expect(host.statuses().get('steady')).toBe('running');
    expect(h.cancelledFor).toEqual(['boom']);
    expect(h.submitted.filter((i) => i.strategy === 'boom')).toHaveLength(1);
    expect(h.submitted.filter((i) => i.strategy === 'steady')).toHaveLength(3);
    const failure = h.lines.find((l) => l.level === 'error' && l.bindings['strategy'] === 'boom');
    expect(failure?.msg).toBe('strategy failed and was stopped');
  });

  it('stops a strategy that trades outside its markets', async () => {
    const h = harness();
    const rogue = defineStrategy({
      name: 'rogue',
      description: 'trades market 2',
      params: z.object({}),
      run: (ctx) => ctx.streams.mark(1).pipe(map(() => ctx.intents.cancelAll({ marketId: 2 }))),
    });
    const host = new StrategyHost({
      strategies: [hosted(rogue, 'rogue', {}, { onError: 'keep' })],
      streams: h.streams,
      state: h.state,
      execution: h.execution,
      logger: h.logger,
      clock: new ManualClock(),
      runId: 'r',
    });
    await host.start();
    h.marks.next({ marketId: 1, markPrice: '100', blockNumber: 1 });
    await new Promise((r) => setImmediate(r));
    expect(h.submitted).toHaveLength(0);
    expect(host.statuses().get('rogue')).toBe('failed');
    expect(h.cancelledFor).toEqual([]);
  });

  it('gives each strategy only the outcomes of its own intents', async () => {
    const h = harness();
    const seen: string[] = [];
    const listener = defineStrategy({
      name: 'listener',
      description: 'records outcomes',
      params: z.object({}),
      run: (ctx) =>
        ctx.outcomes.pipe(
          mergeMap((o) => {
            seen.push(`${ctx.name}:${o.intentId}`);
            return EMPTY;
          }),
        ),
    });
    const host = new StrategyHost({
      strategies: [hosted(listener, 'x', {}), hosted(listener, 'y', {})],
      streams: h.streams,
      state: h.state,
      execution: h.execution,
      logger: h.logger,
      clock: new ManualClock(),
      runId: 'r',
    });
    await host.start();
    h.outcomes.next({ type: 'accepted', intentId: 'x-r-1', strategy: 'x', kind: 'placeLimit', marketId: 1, atMs: 0 });
    h.outcomes.next({
      type: 'refused',
      intentId: 'y-r-1',
      strategy: 'y',
      kind: 'placeLimit',
      marketId: 1,
      atMs: 0,
      refusal: { rule: 'size', value: '0', reason: 'zero', hints: [] },
    });
    expect(seen).toEqual(['x:x-r-1', 'y:y-r-1']);
  });

  it('stops a strategy whose own nested subscription throws, ends its subscriptions, and keeps the others running', async () => {
    const h = harness();
    let calls = 0;
    const nested = defineStrategy({
      name: 'nested',
      description: 'throws in a subscription it made itself and never returned',
      params: z.object({}),
      run: (ctx) => {
        ctx.streams.mark(1).subscribe(() => {
          calls += 1;
          throw new Error('nested bug');
        });
        return NEVER;
      },
    });
    const host = new StrategyHost({
      strategies: [hosted(nested, 'nested', {}), hosted(echo, 'steady', { size: '1' }, { onError: 'keep' })],
      streams: h.streams,
      state: h.state,
      execution: h.execution,
      logger: h.logger,
      clock: new ManualClock(),
      runId: 'r',
    });
    await host.start();
    h.marks.next({ marketId: 1, markPrice: '100', blockNumber: 1 });
    // RxJS reports a subscriber's error from a timer: let it fire.
    await new Promise((r) => setTimeout(r, 5));
    expect(host.statuses().get('nested')).toBe('failed');
    expect(host.statuses().get('steady')).toBe('running');
    expect(h.cancelledFor).toEqual(['nested']);
    const failure = h.lines.find((l) => l.level === 'error' && l.bindings['strategy'] === 'nested');
    expect(failure?.msg).toBe('strategy failed and was stopped');
    expect((failure?.obj as { err?: Error }).err?.message).toBe('nested bug');
    h.marks.next({ marketId: 1, markPrice: '101', blockNumber: 2 });
    // A subject delivers synchronously: had its own subscription outlived it, it would have run by now.
    expect(calls).toBe(1);
    await new Promise((r) => setTimeout(r, 5));
    expect(h.submitted.filter((i) => i.strategy === 'steady')).toHaveLength(2);
    await host.stop();
  });

  it("runs a strategy's code, timers included, in its scope, and the engine's work outside it", async () => {
    const h = harness();
    const scopes: (string | undefined)[] = [];
    const timed = defineStrategy({
      name: 'timed',
      description: 'looks at its scope from a timer and from a stream',
      params: z.object({}),
      onStart: () => void setTimeout(() => scopes.push(`timer:${currentStrategyScope()?.strategy}`), 1),
      run: (ctx) =>
        ctx.streams.mark(1).pipe(
          map((m) => {
            scopes.push(`stream:${currentStrategyScope()?.strategy}`);
            return ctx.intents.placeLimit({ marketId: 1, side: 'buy', size: '1', price: m.markPrice });
          }),
        ),
    });
    const execution: ExecutionPort = {
      ...h.execution,
      submit: () => scopes.push(`engine:${currentStrategyScope()?.strategy}`),
    };
    const host = new StrategyHost({
      strategies: [hosted(timed, 'a', {})],
      streams: h.streams,
      state: h.state,
      execution,
      logger: h.logger,
      clock: new ManualClock(),
      runId: 'r',
    });
    await host.start();
    h.marks.next({ marketId: 1, markPrice: '100', blockNumber: 1 });
    await new Promise((r) => setTimeout(r, 5));
    expect(scopes).toEqual(['stream:a', 'engine:undefined', 'timer:a']);
    await host.stop();
  });
});
