import { describe, expect, it } from 'vitest';
import { unixSeconds, type Clock } from '../../src/core/clock.js';
import type { ActionSender, SendReceipt } from '../../src/engine/actionSender.js';
import { withEngineDefaults } from '../../src/engine/engineConfig.js';
import { NO_JOURNAL } from '../../src/engine/engineJournal.js';
import type { ExecutorDeps } from '../../src/engine/executorDeps.js';
import { placeLimit } from '../../src/engine/intentBuilders.js';
import { NonceAllocator } from '../../src/engine/nonceAllocator.js';
import { noncePairKey } from '../../src/engine/noncePair.js';
import { OrderTracker } from '../../src/engine/orderTracker.js';
import { isUnconfirmed, sendWithPolicy } from '../../src/engine/sendWithPolicy.js';
import type { ResolvedAction, SignedRequest } from '../../src/engine/signedRequest.js';
import { parseDomain } from '../../src/protocol/domain.js';
import { fastPrivateKeySigner } from '../../src/protocol/nativeSigner.js';
import { SPEC_SELECTORS } from '../../src/protocol/selectors.js';
import { createSigningContext } from '../../src/protocol/signingContext.js';
import { VenueError } from '../../src/venue/venueError.js';
import { VenueTransportError } from '../../src/venue/venueTransportError.js';

const ACCOUNT = '0x00000000000000000000000000000000000000a1';
const context = createSigningContext(
  parseDomain({ name: 'Perps', version: '1', chain_id: '31337', verifying_contract: '0x00000000000000000000000000000000000000c1' }),
  '0x00000000000000000000000000000000000000d1',
);
const signer = fastPrivateKeySigner(`0x${'11'.repeat(32)}`);
const intent = placeLimit({ intentId: 'i-1', strategy: 's', marketId: 1, side: 'buy', size: '0.00015', price: '30000', postOnly: true });
const action: ResolvedAction = {
  action: 'placeOrder',
  order: { market_id: 1, size_steps: 15, price_ticks: 300_000, side: 0, post_only: true, reduce_only: false, stp_mode: 0, order_type: 1, time_in_force: 0, client_order_id: 5n },
  size: '0.00015',
  price: '30000',
};
const notRegistered = () =>
  new VenueError({ httpStatus: 400, rawBody: JSON.stringify({ error: { code: 'FailedPrecondition', message: `FailedPrecondition: account ${ACCOUNT} is not registered (userId 0)` } }), endpoint: 'POST /v1/orders/place' });
const badGateway = () => new VenueError({ httpStatus: 502, rawBody: JSON.stringify({ error: { code: 'Unavailable', message: 'Unavailable: upstream' } }), endpoint: 'POST /v1/orders/place' });

/** Virtual time: a sleep moves the clock by its length at once. */
class InstantClock implements Clock {
  constructor(public ms = 1_700_000_000_000) {}
  now(): number {
    return this.ms;
  }
  async sleep(ms: number): Promise<void> {
    this.ms += ms;
  }
}

interface Sent {
  readonly request: SignedRequest;
  readonly atSeconds: number;
}

function harness(answer: (n: number, clock: InstantClock) => SendReceipt | Error, extra: Partial<ExecutorDeps> = {}, resendDelayMs = 50) {
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
  const deps: ExecutorDeps = {
    account: ACCOUNT,
    config: withEngineDefaults({ retry: { accountNotRegisteredBaseDelayMs: 100, accountNotRegisteredMaxAttempts: 50, resendDelayMs } }),
    selectors: SPEC_SELECTORS,
    auth: { mode: 'permit', context: () => context, signer, allocator },
    sender,
    tracker: new OrderTracker(),
    clock,
    log: { debug() {}, info() {}, warn() {}, error() {} },
    journal: NO_JOURNAL,
    market: () => undefined,
    guard: async () => undefined,
    readNonceState: async () => ({ anchor: 10n, bitmap: 0n }),
    lookupRestingId: async () => undefined,
    confirmPlacement: async () => undefined,
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
    expect(sent.map((s) => noncePairKey(s.request.nonce!))).toEqual([noncePairKey({ anchor: 11n, bit: 0 }), noncePairKey({ anchor: 11n, bit: 1 })]);
    expect(sent.every((s) => (s.request.deadline ?? 0) > s.atSeconds)).toBe(true);
    expect(allocator.status().inFlight).toBe(0);
  });

  it('gives up with PERMIT_DEADLINE_TOO_SHORT instead of re-signing forever', async () => {
    const { deps, sent, allocator } = harness((_n, clock) => {
      clock.ms += 120_000;
      return notRegistered();
    });
    const result = await sendWithPolicy(intent, action, deps);
    expect(result.type === 'failed' ? (result.error as { code: string }).code : result.type).toBe('PERMIT_DEADLINE_TOO_SHORT');
    expect(sent).toHaveLength(6);
    expect(new Set(sent.map((s) => noncePairKey(s.request.nonce!))).size).toBe(6);
    expect(allocator.status().inFlight).toBe(0);
  });

  it('after an unanswered send, a passed deadline means confirm, never a stale resend', async () => {
    // The resend wait (120 s) outlasts the 60 s permit.
    const { deps, sent } = harness(() => badGateway(), { confirmPlacement: async () => '0xfeed' }, 120_000);
    const result = await sendWithPolicy(intent, action, deps);
    expect(result.type === 'accepted' ? result.receipt.orderId : result.type).toBe('0xfeed');
    expect(sent).toHaveLength(1);
  });

  it('reports OUTCOME_UNCONFIRMED when the confirming lookup fails too', async () => {
    const lookupFailure = new VenueTransportError({ kind: 'Timeout', endpoint: 'GET /v1/orders/open', timeoutMs: 10_000 });
    const { deps, allocator } = harness(
      () => badGateway(),
      {
        confirmPlacement: async () => {
          throw lookupFailure;
        },
      },
      120_000,
    );
    const result = await sendWithPolicy(intent, action, deps);
    expect(result.type).toBe('failed');
    const error = result.type === 'failed' ? (result.error as { code: string; cause: unknown }) : undefined;
    expect(error?.code).toBe('OUTCOME_UNCONFIRMED');
    expect(error?.cause).toBe(lookupFailure);
    expect(result.type === 'failed' && isUnconfirmed(result.error)).toBe(true);
    expect(allocator.status().inFlight).toBe(0);
  });

  it('a definite refusal is not unconfirmed; a transport failure is', () => {
    expect(isUnconfirmed(notRegistered())).toBe(false);
    expect(isUnconfirmed(new VenueTransportError({ kind: 'ConnectionFailed', endpoint: 'POST /v1/orders/place' }))).toBe(true);
  });
});
