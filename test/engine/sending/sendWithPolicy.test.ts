import { describe, expect, it } from 'vitest';
import { unixSeconds, type Clock } from '../../../src/core/clock.js';
import type { ActionSender, SendReceipt } from '../../../src/engine/sending/actionSender.js';
import { withEngineDefaults } from '../../../src/engine/config/engineConfig.js';
import { NO_JOURNAL } from '../../../src/engine/tracking/engineJournal.js';
import type { SendDeps } from '../../../src/engine/sending/sendDeps.js';
import {
  adjustIsolatedMargin,
  cancel,
  cancelAll,
  placeLimit,
  placeMarket,
  setLeverage,
  setMarginMode,
} from '../../../src/engine/intents/intentBuilders.js';
import { readLandingEvidence, type LandingReader } from '../../../src/engine/sending/landingEvidence.js';
import { NonceAllocator } from '../../../src/engine/nonces/nonceAllocator.js';
import { noncePairKey } from '../../../src/engine/nonces/noncePair.js';
import { OrderTracker } from '../../../src/engine/tracking/orderTracker.js';
import { isUnconfirmed, sendWithPolicy } from '../../../src/engine/sending/sendWithPolicy.js';
import type { SignedRequest } from '../../../src/engine/signing/signedRequest.js';
import type { ResolvedAction } from '../../../src/engine/checks/wireAction.js';
import { MAX_LANDING_RESIGNS } from '../../../src/engine/sending/landingPolicy.js';
import { fastPrivateKeySigner } from '../../../src/protocol/nativeSigner.js';
import { SPEC_SELECTORS } from '../../../src/protocol/selectors.js';
import type { Position } from '../../../src/venue/schemas/restAccount.js';
import type { OrderHistoryRecord } from '../../../src/venue/schemas/restHistory.js';
import type { OpenOrder } from '../../../src/venue/schemas/restOrders.js';
import { VenueError } from '../../../src/venue/venueError.js';
import { VenueTransportError } from '../../../src/venue/venueTransportError.js';
import { CONTEXT as context, SIGNER_KEY } from '../../protocol/fixtures.js';

const ACCOUNT = '0x00000000000000000000000000000000000000a1';
const signer = fastPrivateKeySigner(SIGNER_KEY);
const intent = placeLimit({
  intentId: 'i-1',
  strategy: 's',
  marketId: 1,
  side: 'buy',
  size: '0.00015',
  price: '30000',
  postOnly: true,
});
const action: ResolvedAction = {
  action: 'placeOrder',
  order: {
    market_id: 1,
    size_steps: 15,
    price_ticks: 300_000,
    side: 0,
    post_only: true,
    reduce_only: false,
    stp_mode: 0,
    order_type: 1,
    time_in_force: 0,
    client_order_id: 5n,
  },
  size: '0.00015',
  price: '30000',
};
const notRegistered = () =>
  new VenueError({
    httpStatus: 400,
    rawBody: JSON.stringify({
      error: {
        code: 'FailedPrecondition',
        message: `FailedPrecondition: account ${ACCOUNT} is not registered (userId 0)`,
      },
    }),
    endpoint: 'POST /v1/orders/place',
  });
const badGateway = () =>
  new VenueError({
    httpStatus: 502,
    rawBody: JSON.stringify({ error: { code: 'Unavailable', message: 'Unavailable: upstream' } }),
    endpoint: 'POST /v1/orders/place',
  });
/** The sim's answer when the action ran but the reply was lost. */
const lostReply = () =>
  new VenueError({
    httpStatus: 500,
    rawBody: JSON.stringify({ error: { code: 'Internal', message: 'Internal: simulated failure after execution' } }),
    endpoint: 'POST /v1/orders/place',
  });
const nonceUsed = () =>
  new VenueError({
    httpStatus: 400,
    rawBody: JSON.stringify({
      error: { code: 'FailedPrecondition', message: 'FailedPrecondition: PlaceOrder reverted: NonceUsed()' },
    }),
    endpoint: 'POST /v1/orders/place',
  });
const badAnchor = () =>
  new VenueError({
    httpStatus: 400,
    rawBody: JSON.stringify({
      error: { code: 'FailedPrecondition', message: 'FailedPrecondition: CancelOrder reverted: InvalidNonceAnchor()' },
    }),
    endpoint: 'POST /v1/orders/cancel',
  });

/** Virtual time: a sleep moves the clock by its length at once. */
class InstantClock implements Clock {
  /** Called as a sleep starts (a feed frame that arrives while the engine waits). */
  onSleep: (ms: number) => void = () => undefined;
  constructor(public ms = 1_700_000_000_000) {}
  now(): number {
    return this.ms;
  }
  async sleep(ms: number): Promise<void> {
    this.onSleep(ms);
    this.ms += ms;
  }
}

interface Sent {
  readonly request: SignedRequest;
  readonly atSeconds: number;
}

function harness(
  answer: (n: number, clock: InstantClock) => SendReceipt | Error,
  extra: Partial<SendDeps> = {},
  resendDelayMs = 50,
) {
  const clock = new InstantClock();
  const allocator = new NonceAllocator(ACCOUNT, { anchor: 10n, bitmap: 0n });
  const sent: Sent[] = [];
  const sender: ActionSender = {
    async send(request) {
      sent.push({ request, atSeconds: unixSeconds(clock) });
      const result = answer(sent.length, clock);
      if (result instanceof Error) throw result;
      return result;
    },
  };
  const deps: SendDeps = {
    account: ACCOUNT,
    config: withEngineDefaults({
      retry: { accountNotRegisteredBaseDelayMs: 100, accountNotRegisteredMaxAttempts: 50, resendDelayMs },
    }),
    selectors: SPEC_SELECTORS,
    auth: { mode: 'permit', context: () => context, signer, allocator },
    sender,
    tracker: new OrderTracker(),
    clock,
    log: { debug() {}, info() {}, warn() {}, error() {} },
    journal: NO_JOURNAL,
    readNonceState: async () => ({ anchor: 10n, bitmap: 0n }),
    readLandingEvidence: async () => ({ kind: 'cannot_tell', detail: 'no venue in this test' }),
    onSignerNotAuthorized: () => undefined,
    permitDeadlineSeconds: 60,
    ...extra,
  };
  return { deps, sent, allocator, clock };
}

describe('sendWithPolicy and permit deadlines', () => {
  it('re-signs with a new pair when the deadline passed while waiting out a definite refusal', async () => {
    const { deps, sent, allocator } = harness((n, clock) => {
      if (n === 1) {
        clock.ms += 120_000;
        return notRegistered();
      }
      return { orderId: '0xabc' };
    });
    const result = await sendWithPolicy(intent, action, deps);
    expect(result.type).toBe('accepted');
    expect(sent.map((s) => noncePairKey(s.request.nonce!))).toEqual([
      noncePairKey({ anchor: 11n, bit: 0 }),
      noncePairKey({ anchor: 11n, bit: 1 }),
    ]);
    expect(sent.every((s) => (s.request.deadline ?? 0) > s.atSeconds)).toBe(true);
    expect(allocator.status().inFlight).toBe(0);
  });

  it('gives up with PERMIT_DEADLINE_TOO_SHORT instead of re-signing forever', async () => {
    const { deps, sent, allocator } = harness((_n, clock) => {
      clock.ms += 120_000;
      return notRegistered();
    });
    const result = await sendWithPolicy(intent, action, deps);
    expect(result.type === 'failed' ? (result.error as { code: string }).code : result.type).toBe(
      'PERMIT_DEADLINE_TOO_SHORT',
    );
    expect(sent).toHaveLength(6);
    expect(new Set(sent.map((s) => noncePairKey(s.request.nonce!))).size).toBe(6);
    expect(allocator.status().inFlight).toBe(0);
  });

  it('after an unanswered send, a passed deadline means confirm, never a stale resend', async () => {
    // The resend wait (120 s) outlasts the 60 s permit.
    const { deps, sent } = harness(
      () => badGateway(),
      { readLandingEvidence: async () => ({ kind: 'in_effect', orderId: '0xfeed', detail: 'found' }) },
      120_000,
    );
    const result = await sendWithPolicy(intent, action, deps);
    expect(result.type === 'accepted' ? result.receipt.orderId : result.type).toBe('0xfeed');
    expect(sent).toHaveLength(1);
  });

  it('reports the outcome unknown (OUTCOME_UNCONFIRMED) when the confirming lookup fails too', async () => {
    const lookupFailure = new VenueTransportError({
      kind: 'Timeout',
      endpoint: 'GET /v1/orders/open',
      timeoutMs: 10_000,
    });
    const venue = fakeVenue();
    venue.openOrders = async () => {
      throw lookupFailure;
    };
    const { deps, allocator } = harness(() => badGateway(), {}, 120_000);
    const withVenue = onVenue(deps, venue);
    const result = await sendWithPolicy(intent, action, withVenue);
    expect(result.type).toBe('unknown');
    const error = result.type === 'unknown' ? result.error : undefined;
    expect(error?.code).toBe('OUTCOME_UNCONFIRMED');
    expect(error?.cause).toBe(lookupFailure);
    expect(isUnconfirmed(error)).toBe(true);
    expect(allocator.status().inFlight).toBe(0);
  });

  it('a definite refusal is not unconfirmed; a transport failure is', () => {
    expect(isUnconfirmed(notRegistered())).toBe(false);
    expect(
      isUnconfirmed(new VenueTransportError({ kind: 'ConnectionFailed', endpoint: 'POST /v1/orders/place' })),
    ).toBe(true);
  });
});

/** A venue's open orders and positions, as the landing checks read them. */
interface FakeVenue {
  open: OpenOrder[];
  position: Position;
  /** How the order the cancels target left the book, as its history record says. */
  status: OrderHistoryRecord['status'];
  reads: string[];
  openOrders: LandingReader['rest']['openOrders'];
  positionRead: LandingReader['rest']['position'];
  orderById: NonNullable<LandingReader['rest']['orderById']>;
}

const FLAT: Position = {
  market_id: '0',
  size: null,
  side: null,
  margin_mode: null,
  isolated_usdc_balance: null,
  avg_entry_price: null,
  mark_price: null,
  leverage: null,
  unrealized_pnl: null,
  liquidation_price: null,
};
const ORDER_ID = '0x00000000000000f2aa';

function openOrder(extra: Partial<OpenOrder> = {}): OpenOrder {
  return {
    order_id: ORDER_ID,
    resting_order_id: 0x79n,
    wide_order_id: 0xf2n,
    market_id: '1',
    account: ACCOUNT,
    side: 0,
    size_steps: 15,
    price_ticks: 300_000,
    order_type: 1,
    time_in_force: 0,
    post_only: true,
    reduce_only: false,
    ...extra,
  };
}

function positionWith(fields: Partial<Position>): Position {
  return { ...FLAT, market_id: '1', size: '0.001', side: 'BUY', margin_mode: 0, leverage: '10', ...fields };
}

function fakeVenue(): FakeVenue {
  const venue: FakeVenue = {
    open: [],
    position: FLAT,
    reads: [],
    openOrders: async () => {
      venue.reads.push('openOrders');
      return { orders: venue.open, total_orders: venue.open.length };
    },
    positionRead: async () => {
      venue.reads.push('position');
      return venue.position;
    },
    status: 'ORDER_STATUS_CANCELLED',
    orderById: async (orderId) => {
      venue.reads.push('orderById');
      const filled = venue.status === 'ORDER_STATUS_FILLED' ? '0.001' : '0';
      const record = { id: orderId, market_id: '1', side: 'BUY', type: 'LIMIT', price: '1', size: '0.001' } as const;
      return { ...record, status: venue.status, filled_size: filled, avg_price: undefined, created_at: 1n };
    },
  };
  return venue;
}

/** The harness's deps with the real landing checks over a fake venue and the harness's tracker. */
function onVenue(deps: SendDeps, venue: FakeVenue, feedWaitMs = 500): SendDeps {
  const reader: LandingReader = {
    rest: {
      openOrders: (q, o) => venue.openOrders(q, o),
      position: (q, o) => venue.positionRead(q, o),
      orderById: (id, o) => venue.orderById(id, o),
    },
    account: ACCOUNT,
    tracker: deps.tracker,
    clock: deps.clock,
    feedWaitMs,
  };
  return { ...deps, readLandingEvidence: (i, a, signal) => readLandingEvidence(reader, i.intentId, a, signal) };
}

function pairsOf(sent: readonly Sent[]): string[] {
  return sent.map((s) => noncePairKey(s.request.nonce!));
}

describe('sendWithPolicy confirms a first send that may have executed, per action kind', () => {
  const iocIntent = placeMarket({ intentId: 'ioc-1', strategy: 's', marketId: 1, side: 'buy', size: '0.001' });
  const iocAction: ResolvedAction = {
    action: 'placeOrder',
    order: {
      market_id: 1,
      size_steps: 100,
      price_ticks: 660_000,
      side: 0,
      post_only: false,
      reduce_only: false,
      stp_mode: 0,
      order_type: 0,
      time_in_force: 3,
      client_order_id: 77n,
    },
    size: '0.001',
    price: '66000',
  };
  const pendingIoc = (deps: SendDeps) =>
    deps.tracker.submitted({
      intentId: 'ioc-1',
      strategy: 's',
      marketId: 1,
      side: 'buy',
      size: '0.001',
      price: '66000',
      clientOrderId: 77n,
    });
  const iocFill = {
    id: 'f-1',
    market_id: 1,
    order_id: ORDER_ID,
    side: 'buy' as const,
    price: '66000',
    size: '0.001',
    fee: '0.01',
    time: 1n,
    liquidity_indicator: 'TAKER' as const,
    client_order_id: '77',
  };

  it('placement: an IOC that filled at once, answered 5xx, resent into NonceUsed, is accepted from its fill (never open)', async () => {
    const venue = fakeVenue();
    let deps!: SendDeps;
    const h = harness((n) => {
      if (n === 1) {
        // The order executed and filled; the fills channel reports it; the reply was lost.
        deps.tracker.onFill(iocFill);
        return lostReply();
      }
      return nonceUsed();
    });
    deps = onVenue(h.deps, venue);
    pendingIoc(deps);
    const result = await sendWithPolicy(iocIntent, iocAction, deps);
    expect(result.type === 'accepted' ? result.receipt.orderId : result.type).toBe(ORDER_ID);
    expect(h.sent).toHaveLength(2);
    expect(new Set(pairsOf(h.sent)).size).toBe(1); // the identical request resent, never a new one
    expect(deps.tracker.order('ioc-1')).toMatchObject({ state: 'filled', orderId: ORDER_ID });
    expect(venue.reads).toEqual([]); // the tracker knew: no venue read needed
    expect(h.allocator.status().inFlight).toBe(0);
  });

  it('placement: found among the open orders by client_order_id', async () => {
    const venue = fakeVenue();
    venue.open = [openOrder({ client_order_id: 5n })];
    const h = harness((n) => (n === 1 ? lostReply() : nonceUsed()));
    const result = await sendWithPolicy(intent, action, onVenue(h.deps, venue));
    expect(result.type === 'accepted' ? result.receipt.orderId : result.type).toBe(ORDER_ID);
  });

  it('placement: the orders channel shows it while the engine waits for the feed', async () => {
    const venue = fakeVenue();
    const h = harness((n) => (n === 1 ? lostReply() : nonceUsed()));
    pendingIoc(h.deps);
    h.clock.onSleep = (ms) => {
      if (ms === 500)
        h.deps.tracker.onOrderRecords(
          [
            {
              order_id: ORDER_ID,
              market_id: 1,
              status: 'ORDER_STATUS_FILLED',
              client_order_id: '77',
              filled_size: '0.001',
            },
          ],
          false,
        );
    };
    const result = await sendWithPolicy(iocIntent, iocAction, onVenue(h.deps, venue));
    expect(result.type === 'accepted' ? result.receipt.orderId : result.type).toBe(ORDER_ID);
    expect(venue.reads).toEqual(['openOrders']);
  });

  it('placement: seen nowhere is unknown, never accepted, and never placed again', async () => {
    const venue = fakeVenue();
    const h = harness((n) => (n === 1 ? lostReply() : nonceUsed()));
    pendingIoc(h.deps);
    const result = await sendWithPolicy(iocIntent, iocAction, onVenue(h.deps, venue));
    expect(result.type).toBe('unknown');
    expect(result.type === 'unknown' ? result.error.message : '').toMatch(
      /client_order_id 77: no open order has it, and the orders and fills channels showed none within 500 ms/,
    );
    expect(h.sent).toHaveLength(2);
  });

  const cancelIntent = cancel({ intentId: 'c-1', strategy: 's', marketId: 1, target: { orderId: ORDER_ID } });
  const cancelAction: ResolvedAction = {
    action: 'cancelOrder',
    market_id: 1,
    order_id: ORDER_ID,
    resting_order_id: 0x79n,
  };

  it('cancel: the order gone (its history: cancelled) after NonceUsed on the resend is accepted', async () => {
    const venue = fakeVenue();
    const h = harness((n) => (n === 1 ? lostReply() : nonceUsed()));
    const result = await sendWithPolicy(cancelIntent, cancelAction, onVenue(h.deps, venue));
    expect(result.type).toBe('accepted');
    expect(venue.reads).toEqual(['openOrders', 'orderById']);
    expect(h.sent).toHaveLength(2);
  });

  it('cancel: the order gone by a fill after NonceUsed on the resend ends as its target finished, never accepted', async () => {
    const venue = fakeVenue();
    venue.status = 'ORDER_STATUS_FILLED';
    const h = harness((n) => (n === 1 ? lostReply() : nonceUsed()));
    const result = await sendWithPolicy(cancelIntent, cancelAction, onVenue(h.deps, venue));
    expect(result.type).toBe('failed');
    const error = (result as { error: unknown }).error;
    expect(error).toMatchObject({ code: 'CANCEL_TARGET_FINISHED' });
    expect((error as Error).message).toMatch(/its history shows ORDER_STATUS_FILLED/);
    expect(h.sent).toHaveLength(2);
  });

  it('cancel: still open after InvalidNonceAnchor on the resend (another process rolled the anchor) is signed again with a new nonce', async () => {
    const venue = fakeVenue();
    venue.open = [openOrder()];
    const h = harness((n) => {
      if (n === 1) return lostReply();
      if (n === 2) return badAnchor();
      venue.open = [];
      return {};
    });
    const result = await sendWithPolicy(cancelIntent, cancelAction, onVenue(h.deps, venue));
    expect(result.type).toBe('accepted');
    const pairs = pairsOf(h.sent);
    expect(pairs).toHaveLength(3);
    expect(pairs[1]).toBe(pairs[0]);
    expect(pairs[2]).not.toBe(pairs[0]);
    expect(h.allocator.status().inFlight).toBe(0);
  });

  it('cancel: still open every time is signed again at most MAX_LANDING_RESIGNS times, then unknown', async () => {
    const venue = fakeVenue();
    venue.open = [openOrder()];
    const h = harness((n) => (n % 2 === 1 ? lostReply() : badAnchor()));
    const result = await sendWithPolicy(cancelIntent, cancelAction, onVenue(h.deps, venue));
    expect(result.type).toBe('unknown');
    expect(result.type === 'unknown' ? result.error.message : '').toMatch(
      /still open on the venue, still after 2 new signatures/,
    );
    expect(new Set(pairsOf(h.sent)).size).toBe(MAX_LANDING_RESIGNS + 1);
    expect(h.sent).toHaveLength(2 * (MAX_LANDING_RESIGNS + 1));
  });

  it('cancel: a read that fails cannot tell: unknown', async () => {
    const venue = fakeVenue();
    venue.openOrders = async () => {
      throw new VenueTransportError({ kind: 'Timeout', endpoint: 'GET /v1/orders/open', timeoutMs: 1000 });
    };
    const h = harness((n) => (n === 1 ? lostReply() : nonceUsed()));
    const result = await sendWithPolicy(cancelIntent, cancelAction, onVenue(h.deps, venue));
    expect(result.type).toBe('unknown');
    expect(result.type === 'unknown' ? result.error.hints : []).toEqual([
      'read the open orders before cancelling again',
    ]);
  });

  it('cancel-all: accepted when the market has no open order, unknown when one is open (it may be newer)', async () => {
    const all = cancelAll({ intentId: 'ca-1', strategy: 's', marketId: 1 });
    const allAction: ResolvedAction = { action: 'cancelAllOrders', market_id: 1 };
    const venue = fakeVenue();
    const h1 = harness((n) => (n === 1 ? lostReply() : nonceUsed()));
    expect((await sendWithPolicy(all, allAction, onVenue(h1.deps, venue))).type).toBe('accepted');
    venue.open = [openOrder()];
    const h2 = harness((n) => (n === 1 ? lostReply() : nonceUsed()));
    const result = await sendWithPolicy(all, allAction, onVenue(h2.deps, venue));
    expect(result.type).toBe('unknown');
    expect(h2.sent).toHaveLength(2); // never signed again on a guess
  });

  const leverageIntent = setLeverage({ intentId: 'l-1', strategy: 's', marketId: 1, leverage: 5 });
  const leverageAction: ResolvedAction = { action: 'updateLeverage', market_id: 1, leverage: 5 };

  it('leverage: the position showing the requested leverage is accepted', async () => {
    const venue = fakeVenue();
    venue.position = positionWith({ leverage: '5' });
    const h = harness((n) => (n === 1 ? lostReply() : nonceUsed()));
    expect((await sendWithPolicy(leverageIntent, leverageAction, onVenue(h.deps, venue))).type).toBe('accepted');
    expect(venue.reads).toEqual(['position']);
  });

  it('leverage: another value after InvalidNonceAnchor is signed again; a flat position cannot tell: unknown', async () => {
    const venue = fakeVenue();
    venue.position = positionWith({ leverage: '10' });
    const h = harness((n) => {
      if (n === 1) return lostReply();
      if (n === 2) return badAnchor();
      return {};
    });
    expect((await sendWithPolicy(leverageIntent, leverageAction, onVenue(h.deps, venue))).type).toBe('accepted');
    expect(new Set(pairsOf(h.sent)).size).toBe(2);

    venue.position = FLAT;
    const flat = harness((n) => (n === 1 ? lostReply() : nonceUsed()));
    const result = await sendWithPolicy(leverageIntent, leverageAction, onVenue(flat.deps, venue));
    expect(result.type).toBe('unknown');
    expect(result.type === 'unknown' ? result.error.message : '').toMatch(
      /flat, and a flat position shows no leverage/,
    );
    expect(flat.sent).toHaveLength(2);
  });

  it('margin mode: the position in the requested mode is accepted; flat (as a switch needs) is unknown', async () => {
    const modeIntent = setMarginMode({ intentId: 'm-1', strategy: 's', marketId: 1, marginMode: 'isolated' });
    const modeAction: ResolvedAction = { action: 'updateMarginMode', market_id: 1, margin_mode: 1 };
    const venue = fakeVenue();
    venue.position = positionWith({ margin_mode: 1 });
    const h = harness((n) => (n === 1 ? lostReply() : nonceUsed()));
    expect((await sendWithPolicy(modeIntent, modeAction, onVenue(h.deps, venue))).type).toBe('accepted');
    venue.position = FLAT;
    const flat = harness((n) => (n === 1 ? lostReply() : nonceUsed()));
    expect((await sendWithPolicy(modeIntent, modeAction, onVenue(flat.deps, venue))).type).toBe('unknown');
  });

  it('isolated margin: an amount cannot be confirmed from a balance, so it is unknown and never sent again', async () => {
    const marginIntent = adjustIsolatedMargin({ intentId: 'im-1', strategy: 's', marketId: 1, amount: '100' });
    const marginAction: ResolvedAction = { action: 'updateIsolatedMargin', market_id: 1, amount: 100n * 10n ** 18n };
    const venue = fakeVenue();
    const h = harness((n) => (n === 1 ? lostReply() : nonceUsed()));
    const result = await sendWithPolicy(marginIntent, marginAction, onVenue(h.deps, venue));
    expect(result.type).toBe('unknown');
    expect(result.type === 'unknown' ? result.error.hints[0] : '').toMatch(/a repeat would move it twice/);
    expect(h.sent).toHaveLength(2);
    expect(venue.reads).toEqual([]);
  });
});
