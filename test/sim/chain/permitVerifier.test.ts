import { describe, expect, it } from 'vitest';
import { parseAddress } from '../../../src/core/address.js';
import { cancelAllOrdersHash } from '../../../src/protocol/actionHashes.js';
import { privateKeySigner } from '../../../src/protocol/digestSigner.js';
import { signPermit } from '../../../src/protocol/permit.js';
import { createSigningContext } from '../../../src/protocol/signingContext.js';
import { NonceBook } from '../../../src/sim/chain/nonceBook.js';
import { verifyPermit } from '../../../src/sim/chain/permitVerifier.js';
import { SignerRegistry } from '../../../src/sim/chain/signerRegistry.js';
import { permitSchema } from '../../../src/venue/schemas/restPermit.js';

const domain = {
  name: 'PerpsAuthorization',
  version: '1',
  chainId: 31337n,
  verifyingContract: parseAddress('0x00000000000000000000000000000000000000a1', 'auth'),
};
const router = '0x00000000000000000000000000000000000000b2';
const context = createSigningContext(domain, router);
const key = privateKeySigner('0x0101010101010101010101010101010101010101010101010101010101010101');
const account = parseAddress('0x00000000000000000000000000000000000000c3', 'account');
const hash = cancelAllOrdersHash(1);
const NOW = 1_700_000_000;

async function permit(
  options: { anchor?: bigint; bit?: number; deadline?: number; routerOverride?: string; signedAnchor?: bigint } = {},
) {
  const signingContext =
    options.routerOverride === undefined ? context : createSigningContext(domain, options.routerOverride);
  const wire = await signPermit(signingContext, key, {
    account,
    actionHash: hash,
    nonceAnchor: options.signedAnchor ?? options.anchor ?? 0n,
    nonceBitmap: options.bit ?? 0,
    deadline: options.deadline ?? NOW + 60,
  });
  return permitSchema.parse({ ...wire, nonce_anchor: String(options.anchor ?? 0n) });
}

function setup(): { nonces: NonceBook; signers: SignerRegistry } {
  const signers = new SignerRegistry();
  signers.activate(account, key.address);
  return { nonces: new NonceBook(), signers };
}

/** How many times the last `check` worked out the action's hash. */
let hashed = 0;

function check(state: ReturnType<typeof setup>, p: Awaited<ReturnType<typeof permit>>): string | undefined {
  hashed = 0;
  try {
    verifyPermit(context, state.nonces, state.signers, {
      action: 'CancelAllOrders',
      permit: p,
      actionHash: () => {
        hashed += 1;
        return hash;
      },
      nowSeconds: NOW,
    });
    return undefined;
  } catch (error) {
    return (error as { text: string }).text;
  }
}

describe('verifyPermit', () => {
  it('accepts a permit of an Active signer and consumes nothing itself', async () => {
    const state = setup();
    expect(check(state, await permit())).toBeUndefined();
    expect(state.nonces.state(account).bitmap).toBe(0n);
  });

  it('names the recovered address when the target is not the router', async () => {
    const text = check(setup(), await permit({ routerOverride: '0x00000000000000000000000000000000000000d4' }));
    expect(text).toMatch(/^FailedPrecondition: CancelAllOrders reverted: SignerNotAuthorized\(0x[0-9a-fA-F]{40}\)$/);
    expect(text).not.toContain(key.address);
  });

  it('refuses a revoked signer, naming it', async () => {
    const state = setup();
    state.signers.revoke(account, key.address);
    expect(check(state, await permit())).toBe(
      `FailedPrecondition: CancelAllOrders reverted: SignerNotAuthorized(${key.address})`,
    );
  });

  it('tells a signed-versus-sent anchor mismatch apart from a bad signature', async () => {
    expect(check(setup(), await permit({ anchor: 1n, signedAnchor: 0n }))).toBe(
      'FailedPrecondition: CancelAllOrders reverted: InvalidNonceAnchor',
    );
  });

  it("takes a trusted account's permit as signed by the signer it names (an in-process replay), and checks the rest", async () => {
    const state = setup();
    state.signers.trustSignaturesOf(account);
    // Signed for another target: recovery would name another address; trusted, it is not recovered.
    expect(
      check(state, await permit({ routerOverride: '0x00000000000000000000000000000000000000d4' })),
    ).toBeUndefined();
    // Nothing recovered, so the action's hash is not worked out; an untrusted account's is.
    expect(hashed).toBe(0);
    expect(check(setup(), await permit())).toBeUndefined();
    expect(hashed).toBe(1);
    state.signers.revoke(account, key.address);
    expect(check(state, await permit())).toBe(
      `FailedPrecondition: CancelAllOrders reverted: SignerNotAuthorized(${key.address})`,
    );
    expect(check(state, await permit({ deadline: NOW - 1 }))).toMatch(/^InvalidArgument: permit deadline expired/);
    const other = setup();
    expect(check(other, await permit({ routerOverride: '0x00000000000000000000000000000000000000d4' }))).toMatch(
      /SignerNotAuthorized/,
    );
  });

  it('checks deadline, anchor window, index and reuse in that order', async () => {
    const state = setup();
    expect(check(state, await permit({ deadline: NOW - 1, anchor: 5n }))).toMatch(
      /^InvalidArgument: permit deadline expired/,
    );
    expect(check(state, await permit({ deadline: NOW }))).toBeUndefined();
    expect(check(state, permitSchema.parse({ ...(await permit()), nonce_anchor: '5', nonce_bitmap_index: 250 }))).toBe(
      'FailedPrecondition: CancelAllOrders reverted: InvalidNonceAnchor',
    );
    const p208 = permitSchema.parse({ ...(await permit()), nonce_anchor: '0', nonce_bitmap_index: 208 });
    expect(check(state, p208)).toBe('FailedPrecondition: CancelAllOrders reverted: InvalidNonceIndex(208)');
    state.nonces.consume(account, 0n, 0, 'CancelAllOrders');
    expect(check(state, await permit())).toBe('FailedPrecondition: CancelAllOrders reverted: NonceUsed');
  });
});
