import { describe, expect, it } from 'vitest';
import { refusal } from '../../../src/engine/intents/refusal.js';
import { NonceAllocator } from '../../../src/engine/nonces/nonceAllocator.js';
import { nonceStage } from '../../../src/engine/nonces/nonceStage.js';

const ACCOUNT = '0x00000000000000000000000000000000000000a1';
const permit = () => ({ mode: 'permit' as const, allocator: new NonceAllocator(ACCOUNT, { anchor: 10n, bitmap: 0n }) });

describe('nonceStage', () => {
  it('hands a free pair over at once, without a promise', () => {
    const auth = permit();
    const nonce = nonceStage(auth, undefined, undefined);
    expect(nonce).not.toBeInstanceOf(Promise);
    expect(nonce).toMatchObject({ anchor: 11n, bit: 0 });
    expect(auth.allocator.status().inFlight).toBe(1);
  });

  it('takes no pair in JWT mode', () => {
    expect(nonceStage({ mode: 'jwt' }, undefined, undefined)).toBeUndefined();
  });

  it('takes no pair while a hold is pending, and none at all when the hold refuses', async () => {
    const auth = permit();
    let release!: (r: ReturnType<typeof refusal> | undefined) => void;
    const hold = new Promise<ReturnType<typeof refusal> | undefined>((r) => (release = r));
    const pending = nonceStage(auth, hold, undefined);
    expect(auth.allocator.status().inFlight).toBe(0);
    const no = refusal('replace_cancel_failed', 'i-1', 'the cancel failed');
    release(no);
    expect(await pending).toBe(no);
    expect(auth.allocator.status().inFlight).toBe(0);
  });

  it('takes the pair once the hold lets the action go', async () => {
    const auth = permit();
    const nonce = await nonceStage(auth, Promise.resolve(undefined), undefined);
    expect(nonce).toMatchObject({ anchor: 11n, bit: 0 });
    expect(auth.allocator.status().inFlight).toBe(1);
  });
});
