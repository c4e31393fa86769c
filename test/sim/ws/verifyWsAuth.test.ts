import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { privateKeySigner } from '../../../src/protocol/digestSigner.js';
import { parseDomain } from '../../../src/protocol/domain.js';
import { createSigningContext } from '../../../src/protocol/signingContext.js';
import { signTypedStruct } from '../../../src/protocol/typedSignatures.js';
import { SimChainState } from '../../../src/sim/chain/simChainState.js';
import { verifyAuthV2, verifyJwtAuth } from '../../../src/sim/ws/verifyWsAuth.js';

const ACCOUNT_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const SIGNER_KEY = '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba';
const account = privateKeySigner(ACCOUNT_KEY).address;
const sessionKey = privateKeySigner(SIGNER_KEY);
const signingContext = createSigningContext(
  parseDomain({
    name: 'Sim',
    version: '1',
    chain_id: 31337,
    verifying_contract: '0x00000000000000000000000000000000000000a1',
  }),
  '0x00000000000000000000000000000000000000b2',
);

function setup() {
  const clock = new ManualClock();
  const chain = new SimChainState({ clock, seed: 1, registrationLagMs: 0 });
  chain.signers.activate(account, sessionKey.address);
  return { clock, chain, ctx: { clock, chain, signingContext } };
}

async function frame(
  chain: SimChainState,
  overrides: { key?: typeof sessionKey; nonce?: string; message?: string } = {},
) {
  const nonce = overrides.nonce ?? chain.issueLoginNonce(account);
  const message = 'WebSocket Authentication';
  const signature = await signTypedStruct(signingContext, overrides.key ?? sessionKey, 'RegisterV2', {
    signer: sessionKey.address,
    message,
    nonce: BigInt(nonce),
  });
  return { account, signer: sessionKey.address, message: overrides.message ?? message, nonce, signature };
}

describe('verifyAuthV2', () => {
  it('accepts RegisterV2 signed by the active session key over a fresh server nonce', async () => {
    const { ctx, chain } = setup();
    expect(verifyAuthV2(ctx, await frame(chain))).toEqual({ ok: true, account, signer: sessionKey.address });
  });

  it('refuses a nonce the second time', async () => {
    const { ctx, chain } = setup();
    const params = await frame(chain);
    expect(verifyAuthV2(ctx, params).ok).toBe(true);
    const again = verifyAuthV2(ctx, params);
    expect(again.ok).toBe(false);
    expect(again).toEqual({
      ok: false,
      code: 'Unauthenticated',
      message: 'Unauthenticated: nonce unknown or already used (fetch a fresh one from GET /v1/auth/nonce)',
    });
  });

  it('refuses a nonce the server never issued', async () => {
    const { ctx, chain } = setup();
    const result = verifyAuthV2(ctx, await frame(chain, { nonce: `0x${'12'.repeat(32)}` }));
    expect(!result.ok && result.message).toMatch(/^Unauthenticated: nonce unknown or already used/);
  });

  it('refuses a signature by another key without burning the nonce', async () => {
    const { ctx, chain } = setup();
    const nonce = chain.issueLoginNonce(account);
    const forged = verifyAuthV2(ctx, await frame(chain, { nonce, key: privateKeySigner(ACCOUNT_KEY) }));
    expect(!forged.ok && forged.message).toMatch(
      /^Unauthenticated: invalid signature: RegisterV2 does not recover to signer/,
    );
    expect(verifyAuthV2(ctx, await frame(chain, { nonce })).ok).toBe(true);
  });

  it('refuses when the sent message differs from the signed one', async () => {
    const { ctx, chain } = setup();
    const result = verifyAuthV2(ctx, await frame(chain, { message: 'something else' }));
    expect(result.ok).toBe(false);
  });

  it('refuses a revoked session key', async () => {
    const { ctx, chain } = setup();
    chain.signers.revoke(account, sessionKey.address);
    const result = verifyAuthV2(ctx, await frame(chain));
    expect(result).toEqual({
      ok: false,
      code: 'Unauthenticated',
      message: 'Unauthenticated: signer not active for account (status 3)',
    });
  });

  it('refuses an expiration in the past and accepts one in the future', async () => {
    const { ctx, chain, clock } = setup();
    const now = Math.floor(clock.now() / 1000);
    expect(verifyAuthV2(ctx, { ...(await frame(chain)), expiration: String(now - 1) }).ok).toBe(false);
    expect(verifyAuthV2(ctx, { ...(await frame(chain)), expiration: now + 3600 }).ok).toBe(true);
  });

  it('refuses a malformed signature without echoing it', async () => {
    const { ctx, chain } = setup();
    const params = { ...(await frame(chain)), signature: '0xdeadbeef' };
    const result = verifyAuthV2(ctx, params);
    expect(result).toMatchObject({ ok: false, code: 'InvalidArgument' });
    expect(!result.ok && result.message).toMatch(/^InvalidArgument: invalid signature: expected 0x hex of 65 bytes/);
    expect(!result.ok && result.message).not.toContain('deadbeef');
  });
});

describe('verifyJwtAuth', () => {
  it('accepts an access token the chain issued and refuses a tampered one', () => {
    const { ctx, chain, clock } = setup();
    const pair = chain.jwt.issue(account, clock.now());
    expect(verifyJwtAuth(ctx, pair.access_token)).toEqual({ ok: true, account });
    expect(verifyJwtAuth(ctx, `${pair.access_token}x`)).toEqual({
      ok: false,
      code: 'Unauthenticated',
      message: 'Unauthenticated: invalid token',
    });
  });
});
