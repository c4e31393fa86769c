import { performance } from 'node:perf_hooks';
import { keccak_256 } from '@noble/hashes/sha3';
import { NEVER } from 'rxjs';
import { BusyPoll, DEFAULT_BUSY_POLL_WINDOW_MS } from '../../../src/core/busyPoll.js';
import { systemClock } from '../../../src/core/clock.js';
import { PerpbotError } from '../../../src/core/perpbotError.js';
import { venueSender, type ActionSender } from '../../../src/engine/sending/actionSender.js';
import type { IntentOutcome } from '../../../src/engine/intents/intentOutcome.js';
import { stateSnapshot } from '../../../src/strategy/wiring/stateSnapshot.js';
import { strategyStreams } from '../../../src/strategy/wiring/strategyStreams.js';
import { startSim } from '../../../src/sim/startSim.js';
import { StrategyHost, type HostLogger } from '../../../src/strategy/strategyHost.js';
import { OrderBookFeed } from '../../../src/venue/orderbook/orderBookFeed.js';
import { createRestClient } from '../../../src/venue/rest/restClient.js';
import { VenueWsClient } from '../../../src/venue/ws/venueWsClient.js';
import { benchEngine } from '../benchEngine.js';
import { benchAccount } from '../simAccount.js';
import { startBareVenue } from './bareVenue.js';
import { startOracleFeed } from './oracleFeedServer.js';
import { tickStrategy } from './tickStrategy.js';
import { stampWire } from './wireStamps.js';

/**
 * One process, as `npm start` runs it: the venue WebSocket client, the runtime's strategy streams,
 * the strategy host running `tickStrategy`, the engine (checks, guards, nonce, hash, native
 * signature) and its venue sender over the REST client (its own keep-alive HTTP/1.1 client). The feed is an
 * in-process WebSocket server paced by the bench; the venue's order endpoint is an in-process
 * node:http server that answers at once. The engine reads its start-up state (markets, nonces,
 * open orders) from an in-process simulator with no blocks, which then stays idle.
 *
 * Left out on purpose, and named in the figure's notes: the journal (the bench engine has none,
 * as in the other figures), per-strategy budgets, the private channels (no WebSocket auth), and
 * the client-side REST rate limit (500 requests per 10 s would hold orders back; the pace here is
 * hundreds per second).
 */
export interface TickToTradeOptions {
  readonly frames: number;
  readonly warmupFrames: number;
  /** Least time between two frames; a frame also waits for the previous order's outcome. */
  readonly paceMs: number;
  /**
   * Busy polling on (the config's `busy_poll: { enabled: true }`, its default window): the
   * loop spins while frames arrive instead of sleeping between them.
   */
  readonly busyPoll: boolean;
  /** Called once, after the warm-up frames, before the first measured one (a profiler starts here). */
  readonly onMeasuredFrom?: () => Promise<void> | void;
}

export interface TickSample {
  /** Frame bytes at the client to request bytes handed to the kernel, ms. */
  readonly totalMs: number;
  /** Frame bytes at the client to the strategy seeing the mark, ms. */
  readonly toStrategyMs: number;
  /** Frame bytes at the client to the engine handing the signed request to its sender, ms. */
  readonly toSenderMs: number;
  /** When the frame's bytes reached the client (performance.now() ms): to line a CPU profile up with the cycle. */
  readonly arrivalAt: number;
}

export interface TickToTradeReadings {
  readonly samples: readonly TickSample[];
  /**
   * The limit, timed in every measured cycle once the order is answered (between two frames, so
   * under the same load as the cycle itself): JSON.parse of the cycle's frame plus one native
   * signature of a fresh digest with the engine's signer, ms.
   */
  readonly limitSamples: readonly number[];
  readonly cyclesWithSplitFrame: number;
  readonly cyclesWithSeveralWrites: number;
  readonly venueConnections: number;
  readonly signedPlacements: number;
}

const silentHostLogger: HostLogger = { debug() {}, info() {}, warn() {}, error() {}, child: () => silentHostLogger };

export async function measureTickToTrade(
  options: TickToTradeOptions,
  frames: readonly string[],
): Promise<TickToTradeReadings> {
  const total = options.warmupFrames + options.frames;
  if (frames.length < total) throw new RangeError(`need ${total} frames, got ${frames.length}`);
  const sim = await startSim({ port: 0, blockMs: 0, registrationLagMs: 0 });
  const feed = await startOracleFeed();
  const venue = await startBareVenue();
  const stamps = stampWire({ feedPort: feed.port, venuePort: venue.port });
  const cleanups: (() => Promise<void> | void)[] = [];
  try {
    const who = await benchAccount(sim);
    // The engine's own venue sender, wrapped only to stamp when the engine hands it the signed request.
    const inner = venueSender(createRestClient({ baseUrl: venue.url, timeoutMs: 10_000, rateLimit: false }));
    let sendAt: number | undefined;
    const sender: ActionSender = {
      send: (request, callOptions) => {
        sendAt ??= performance.now();
        return inner.send(request, callOptions);
      },
    };
    const engine = benchEngine(who, sender);
    await engine.start();
    cleanups.push(() => engine.stop());

    const ws = new VenueWsClient({
      url: feed.url,
      knownMarketIds: async () => engine.markets().map((m) => Number(m.market_id)),
    });
    cleanups.push(() => ws.close());
    if (options.busyPoll) {
      const poll = new BusyPoll({ windowMs: DEFAULT_BUSY_POLL_WINDOW_MS, activity: () => ws.framesReceived });
      poll.start();
      cleanups.unshift(() => poll.stop());
    }
    engine.attach({
      orders: NEVER,
      positions: NEVER,
      fills: NEVER,
      account: NEVER,
      oracle: ws.channel('oracle', { marketIds: [1] }),
      reconnected: NEVER,
    });

    let markAt: number | undefined;
    const host = new StrategyHost({
      strategies: [
        {
          name: 'tick',
          definition: tickStrategy(() => (markAt ??= performance.now())),
          params: {},
          markets: [1],
          onError: 'keep',
          configPath: 'bench',
        },
      ],
      streams: strategyStreams(ws, new OrderBookFeed(ws), engine),
      state: stateSnapshot(engine),
      execution: {
        submit: (intent) => engine.submit(intent),
        outcomes: engine.outcomes$,
        cancelOrdersOf: (s) => engine.cancelOrdersOf(s),
      },
      logger: silentHostLogger,
      clock: systemClock,
      runId: 'bench',
    });
    await host.start();
    cleanups.unshift(() => host.stop());
    await withTimeout(feed.subscribed, 10_000, 'the WebSocket client never subscribed to the oracle channel');

    let resolveOutcome: ((o: IntentOutcome) => void) | undefined;
    const outcomes = engine.outcomes$.subscribe((o) => resolveOutcome?.(o));
    cleanups.unshift(() => outcomes.unsubscribe());

    const samples: TickSample[] = [];
    const limitSamples: number[] = [];
    const digests = Array.from({ length: 256 }, (_, i) => keccak_256(new Uint8Array([i, 7])));
    let split = 0;
    let severalWrites = 0;
    let lastSentAt = 0;
    for (let i = 0; i < total; i++) {
      if (i === options.warmupFrames) await options.onMeasuredFrom?.();
      const wait = lastSentAt + options.paceMs - performance.now();
      await sleep(Math.max(0, wait));
      const outcome = new Promise<IntentOutcome>((resolve) => (resolveOutcome = resolve));
      stamps.arm();
      markAt = undefined;
      sendAt = undefined;
      lastSentAt = performance.now();
      feed.send(frames[i]!);
      const o = await withTimeout(outcome, 10_000, `frame ${i} got no order outcome`);
      if (o.type !== 'accepted') {
        throw new PerpbotError(`tick_to_trade: frame ${i}'s order was not accepted (${o.type})`, {
          code: 'BENCH_TICK_REFUSED',
          details: { outcome: JSON.stringify(o).slice(0, 500) },
        });
      }
      const { arrivalAt, writeAt } = stamps;
      if (arrivalAt === undefined || writeAt === undefined || markAt === undefined || sendAt === undefined) {
        throw new PerpbotError(`tick_to_trade: frame ${i} left a stamp missing`, {
          code: 'BENCH_TICK_STAMP',
          details: {
            arrivalAt: String(arrivalAt),
            writeAt: String(writeAt),
            markAt: String(markAt),
            sendAt: String(sendAt),
          },
          hints: ['the diagnostics channel net.client.socket must announce both client sockets (Node >= 16.18)'],
        });
      }
      if (i < options.warmupFrames) continue;
      const limitStarted = performance.now();
      JSON.parse(frames[i]!);
      who.signer.signDigest(digests[i & 255]!);
      limitSamples.push(performance.now() - limitStarted);
      samples.push({
        totalMs: writeAt - arrivalAt,
        toStrategyMs: markAt - arrivalAt,
        toSenderMs: sendAt - arrivalAt,
        arrivalAt,
      });
      if (stamps.chunks > 1) split++;
      if (stamps.writes > 1) severalWrites++;
    }
    return {
      samples,
      limitSamples,
      cyclesWithSplitFrame: split,
      cyclesWithSeveralWrites: severalWrites,
      venueConnections: stamps.venueConnections,
      signedPlacements: venue.signedPlacements(),
    };
  } finally {
    for (const cleanup of cleanups) await cleanup();
    stamps.close();
    await venue.close();
    await feed.close();
    await sim.close();
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new PerpbotError(`tick_to_trade: ${what} within ${ms} ms`, { code: 'BENCH_TICK_TIMEOUT' })),
          ms,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
