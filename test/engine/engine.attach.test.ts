import { config as rxConfig, NEVER, Subject } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { dryRunSender } from '../../src/engine/sending/actionSender.js';
import { Engine, type EngineFeeds } from '../../src/engine/engine.js';
import { withEngineDefaults } from '../../src/engine/config/engineConfig.js';
import { FeedLostError } from '../../src/engine/connection/feedLostError.js';
import type { TradingStoppedError } from '../../src/engine/stopping/tradingStoppedError.js';
import { SPEC_SELECTORS } from '../../src/protocol/selectors.js';
import type { RestClient } from '../../src/venue/rest/restClient.js';
import type { OrdersMessage, PositionsMessage } from '../../src/venue/schemas/wsFramesPrivate.js';
import { SignerNotActiveError } from '../../src/venue/ws/venueWsError.js';

const ACCOUNT = '0x00000000000000000000000000000000000000a1';

/** An engine that is never started: attach needs no venue, and with no open orders a trip sends nothing. */
function engineWithLog(): { engine: Engine; logged: { level: string; msg: string | undefined }[] } {
  const logged: { level: string; msg: string | undefined }[] = [];
  const at = (level: string) => (_obj: object, msg?: string) => logged.push({ level, msg });
  const engine = new Engine({
    account: ACCOUNT,
    signer: { address: ACCOUNT, signDigest: () => Promise.reject(new Error('no signing here')) } as never,
    rest: {} as RestClient,
    sender: dryRunSender({ info() {} }),
    config: withEngineDefaults(),
    selectors: SPEC_SELECTORS,
    clock: new ManualClock(),
    log: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') },
  });
  return { engine, logged };
}

function feeds() {
  const orders = new Subject<OrdersMessage>();
  const positions = new Subject<PositionsMessage>();
  const all: EngineFeeds = { orders, positions, fills: NEVER, account: NEVER, oracle: NEVER, reconnected: NEVER };
  return { orders, positions, all };
}

// RxJS reports an error nobody handled on a timer of its own (0 ms); these tests collect them.
let unhandled: unknown[] = [];
// Put back as found: other files of this worker rely on the handler in force (the strategy host's).
let before: typeof rxConfig.onUnhandledError = null;
beforeEach(() => {
  unhandled = [];
  before = rxConfig.onUnhandledError;
  rxConfig.onUnhandledError = (error) => unhandled.push(error);
});
afterEach(() => {
  rxConfig.onUnhandledError = before;
});

/** What RxJS reported unhandled so far: a 0 ms timer set now fires after the ones RxJS set before. */
async function unhandledErrors(): Promise<unknown[]> {
  await new Promise((r) => setTimeout(r, 0));
  return unhandled;
}

describe('Engine.attach when a feed fails', () => {
  it('logs it, trips the kill switch naming the feed, and tells the runtime once; nothing is rethrown', async () => {
    const { engine, logged } = engineWithLog();
    const { orders, positions, all } = feeds();
    const lost: FeedLostError[] = [];
    const stopped: TradingStoppedError[] = [];
    engine.attach(all, { onFeedLost: (e) => lost.push(e), onStopped: (e) => stopped.push(e) });

    const cause = new SignerNotActiveError('0x00000000000000000000000000000000000000b2', ACCOUNT, 3);
    positions.error(cause);
    orders.error(cause);
    expect(engine.killSwitch).toMatchObject({
      tripped: true,
      reason: `feed lost: the positions feed failed: ${cause.message}`,
    });
    expect(lost).toHaveLength(1);
    expect(lost[0]).toMatchObject({ code: 'FEED_LOST', channel: 'positions', cause });
    expect(lost[0]?.hints[0]).toMatch(/signer was revoked/);
    expect(logged.filter((l) => l.level === 'error').map((l) => l.msg)).toEqual([
      'a venue feed failed: trading stopped (kill switch tripped)',
      'kill switch tripped: cancelling all orders',
      'trading stopped: signer_not_active',
      'a venue feed failed: trading stopped (kill switch tripped)',
    ]);
    // Which definite condition it was, once, in the log and in a counter.
    expect(stopped.map((e) => e.stopCause)).toEqual(['signer_not_active']);
    expect([...engine.stopCounts]).toEqual([['signer_not_active', 1]]);
    expect(engine.conditions.state.mode).toBe('stopped');
    expect(await unhandledErrors()).toEqual([]);
    await engine.stop();
  });

  it('treats a handler that throws on a message like a failed feed, instead of an unhandled error', async () => {
    const { engine } = engineWithLog();
    const { orders, all } = feeds();
    const lost: FeedLostError[] = [];
    engine.attach(all, { onFeedLost: (e) => lost.push(e) });
    orders.next({ channel: 'orders', type: 'update', orders: null } as unknown as OrdersMessage);
    expect(lost.map((e) => e.channel)).toEqual(['orders']);
    expect(engine.killSwitch.reason).toMatch(/^feed lost: the orders feed failed: /);
    expect(await unhandledErrors()).toEqual([]);
    await engine.stop();
  });

  it('only logs a feed that fails while the engine stops (and the stop unsubscribes the rest)', async () => {
    const { engine, logged } = engineWithLog();
    const { positions, all } = feeds();
    const lost: FeedLostError[] = [];
    engine.attach(all, { onFeedLost: (e) => lost.push(e) });
    const stopping = engine.stop();
    positions.error(new Error('closed by client'));
    await stopping;
    expect(engine.killSwitch.tripped).toBe(false);
    expect(lost).toEqual([]);
    expect(logged.map((l) => l.msg)).toEqual(['a venue feed ended while the engine stops']);
  });
});
