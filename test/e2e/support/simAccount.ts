import { generatePrivateKey } from 'viem/accounts';
import type { Address } from 'viem';
import { createRestClient, type RestClient } from '../../../src/venue/rest/restClient.js';
import { fastPrivateKeySigner } from '../../../src/protocol/nativeSigner.js';
import type { SyncDigestSigner } from '../../../src/protocol/digestSigner.js';
import type { SigningContext } from '../../../src/protocol/signingContext.js';
import { readVenueSigning } from '../../../src/venue/venueInfo.js';
import { registerSigner } from '../../../src/engine/account/registerSigner.js';
import { systemClock } from '../../../src/core/clock.js';
import { signTypedStruct } from '../../../src/protocol/typedSignatures.js';
import type { RunningSim } from '../../../src/sim/startSim.js';

/** A fresh account on a running simulator: funded by the faucet, indexed, with an Active signer. */
export interface SimAccount {
  readonly account: Address;
  readonly accountSigner: SyncDigestSigner;
  /** The main wallet's key, for code under test that takes raw keys (JWT login). */
  readonly accountKey: `0x${string}`;
  readonly signer: SyncDigestSigner;
  /** The session key itself, for code under test that takes raw keys (the runtime). */
  readonly signerKey: `0x${string}`;
  readonly rest: RestClient;
  readonly context: SigningContext;
}

/** Domain and router from the venue, as setup reads them. */
export async function signingContextOf(rest: RestClient): Promise<SigningContext> {
  return (await readVenueSigning(rest)).context;
}

export async function fundedAccount(
  sim: RunningSim,
  options: { register?: boolean; skipLag?: boolean } = {},
): Promise<SimAccount> {
  const rest = createRestClient({ baseUrl: sim.restUrl, timeoutMs: 10_000 });
  const accountKey = generatePrivateKey();
  const accountSigner = fastPrivateKeySigner(accountKey);
  const signerKey = generatePrivateKey();
  const signer = fastPrivateKeySigner(signerKey);
  const account = accountSigner.address;
  const context = await signingContextOf(rest);
  await rest.deposit({ account, amount: '1000' });
  if (options.skipLag !== false) sim.controls.registerNow(account);
  if (options.register !== false) {
    await registerSigner({
      rest,
      context,
      account: accountSigner,
      signer,
      clock: systemClock,
      message: 'perpbot test session key',
    });
  }
  return { account, accountSigner, accountKey, signer, signerKey, rest, context };
}

/** Grants the operator-hub allowance that JWT-authorised orders run against (approve-single). */
export async function grantAllowance(who: SimAccount, budgetUsd = 10_000n): Promise<void> {
  const system = await who.rest.systemConfig();
  const operator = system.addresses.operator_hub;
  if (operator === undefined) throw new Error('the venue serves no operator_hub address');
  const nonceAnchor = BigInt((await who.rest.nonceState(who.account)).nonce_anchor) + 1n;
  const allowanceExpiry = Math.floor(Date.now() / 1000) + 3600;
  const budget = budgetUsd * 10n ** 18n;
  const signature = await signTypedStruct(who.context, who.accountSigner, 'PermitSingle', {
    account: who.account,
    operator,
    budget,
    allowanceExpiry,
    nonceAnchor,
    nonceBitmap: 0,
  });
  await who.rest.approveSingle({
    account: who.account,
    operator,
    budget: budget.toString(),
    allowance_expiry: allowanceExpiry,
    nonce_anchor: nonceAnchor.toString(),
    nonce_bitmap_index: 0,
    signature,
  });
}
