import { describe, expect, it } from 'vitest';
import type { Clock } from '../../../src/core/clock.js';
import { withEngineDefaults } from '../../../src/engine/config/engineConfig.js';
import { NonceAllocator } from '../../../src/engine/nonces/nonceAllocator.js';
import type { SendDeps } from '../../../src/engine/sending/sendDeps.js';
import { signAction } from '../../../src/engine/signing/signAction.js';
import type { ResolvedAction } from '../../../src/engine/checks/wireAction.js';
import { NO_JOURNAL } from '../../../src/engine/tracking/engineJournal.js';
import { OrderTracker } from '../../../src/engine/tracking/orderTracker.js';
import type { DigestSigner } from '../../../src/protocol/digestSigner.js';
import { fastPrivateKeySigner } from '../../../src/protocol/nativeSigner.js';
import { SPEC_SELECTORS } from '../../../src/protocol/selectors.js';
import { CONTEXT as context, SIGNER_KEY } from '../../protocol/fixtures.js';

const ACCOUNT = '0x00000000000000000000000000000000000000a1';
const key = fastPrivateKeySigner(SIGNER_KEY);
const action: ResolvedAction = { action: 'cancelAllOrders', market_id: 1 };
const clock: Clock = { now: () => 1_700_000_000_000, sleep: () => Promise.resolve() };

function deps(signer: DigestSigner, allocator: NonceAllocator, auth: 'permit' | 'jwt' = 'permit'): SendDeps {
  return {
    account: ACCOUNT,
    config: withEngineDefaults({}),
    selectors: SPEC_SELECTORS,
    auth: auth === 'jwt' ? { mode: 'jwt' } : { mode: 'permit', context: () => context, signer, allocator },
    sender: { send: () => Promise.resolve({}) },
    tracker: new OrderTracker(),
    clock,
    log: { debug() {}, info() {}, warn() {}, error() {} },
    journal: NO_JOURNAL,
    readNonceState: () => Promise.resolve({ anchor: 0n, bitmap: 0n }),
    readLandingEvidence: () => Promise.resolve({ kind: 'cannot_tell', detail: 'none' }),
    onSignerNotAuthorized: () => undefined,
    permitDeadlineSeconds: 60,
  };
}

describe('signAction', () => {
  it('signs at once, without a promise, when a nonce is free and the signer answers at once', () => {
    const allocator = new NonceAllocator(ACCOUNT, { anchor: 4n, bitmap: 0n });
    const signed = signAction('i-1', action, deps(key, allocator));
    if (signed instanceof Promise) throw new Error('expected a synchronous signature');
    expect(signed.nonce).toEqual({ anchor: 5n, bit: 0 });
    expect(signed.deadline).toBe(1_700_000_060);
    expect(allocator.status().inFlight).toBe(1);
  });

  it('signs nothing and takes no nonce in JWT mode', () => {
    const allocator = new NonceAllocator(ACCOUNT, { anchor: 4n, bitmap: 0n });
    const signed = signAction('i-1', action, deps(key, allocator, 'jwt'));
    expect(signed).toMatchObject({ endpoint: 'cancelAllOrders' });
    expect(signed).not.toHaveProperty('nonce');
    expect(allocator.status().inFlight).toBe(0);
  });

  it('reports the pair as not consumed when the signer throws, at once or later', async () => {
    const allocator = new NonceAllocator(ACCOUNT, { anchor: 4n, bitmap: 0n });
    const throwing: DigestSigner = {
      address: key.address,
      signDigest: () => {
        throw new Error('hardware signer unplugged');
      },
    };
    expect(() => signAction('i-1', action, deps(throwing, allocator))).toThrow('hardware signer unplugged');
    expect(allocator.status().inFlight).toBe(0);

    const refusing: DigestSigner = { address: key.address, signDigest: () => Promise.reject(new Error('refused')) };
    await expect(signAction('i-2', action, deps(refusing, allocator))).rejects.toThrow('refused');
    expect(allocator.status().inFlight).toBe(0);
  });

  it('waits for a nonce when none is free, and goes through allocate() for an aborted signal', async () => {
    const allocator = new NonceAllocator(ACCOUNT, { anchor: 4n, bitmap: 0n });
    const d = deps(key, allocator);
    const first = allocator.tryAllocate();
    if (first === undefined) throw new Error('expected a free nonce');
    const pairs = [first];
    for (let p = allocator.tryAllocate(); p !== undefined; p = allocator.tryAllocate()) pairs.push(p);
    const waiting = signAction('i-1', action, d);
    expect(waiting).toBeInstanceOf(Promise);
    for (const pair of pairs) allocator.report(pair, 'landed');
    await expect(waiting).resolves.toMatchObject({ nonce: { anchor: 6n, bit: 0 } });
    await expect(signAction('i-2', action, d, AbortSignal.abort(new Error('stopping')))).rejects.toThrow('stopping');
  });
});
