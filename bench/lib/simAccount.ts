import { generatePrivateKey } from 'viem/accounts';
import type { Address } from '../../src/core/address.js';
import { fastPrivateKeySigner } from '../../src/protocol/nativeSigner.js';
import type { SyncDigestSigner } from '../../src/protocol/digestSigner.js';
import { parseDomain } from '../../src/protocol/domain.js';
import { createSigningContext, type SigningContext } from '../../src/protocol/signingContext.js';
import { signTypedStruct } from '../../src/protocol/typedSignatures.js';
import type { RunningSim } from '../../src/sim/startSim.js';
import { createRestClient, type RestClient } from '../../src/venue/rest/restClient.js';

/**
 * A fresh account on a running simulator: funded by the faucet, registered at once, with an
 * Active session key. Copied from the e2e support (benches do not import from test/).
 */
export interface BenchAccount {
  readonly account: Address;
  readonly signer: SyncDigestSigner;
  /** The session key itself, for clients that take raw keys (viem's naive client, runBot). */
  readonly signerKey: `0x${string}`;
  /** Client-side rate limiting off: each bench run stays under the venue's limit by itself. */
  readonly rest: RestClient;
  readonly context: SigningContext;
}

export async function signingContextOf(rest: RestClient): Promise<SigningContext> {
  const [domain, system] = await Promise.all([rest.eip712Domain(), rest.systemConfig()]);
  return createSigningContext(
    parseDomain({ name: domain.name, version: domain.version, chain_id: domain.chain_id.toString(), verifying_contract: domain.verifying_contract }),
    system.addresses.router,
  );
}

export async function benchAccount(sim: RunningSim): Promise<BenchAccount> {
  return benchAccountAt(sim.restUrl, (account) => sim.controls.registerNow(account));
}

/**
 * The same against a simulator reached only by URL (another process): without `registerNow`
 * the simulator must run with no registration lag.
 */
export async function benchAccountAt(restUrl: string, registerNow?: (account: Address) => void): Promise<BenchAccount> {
  const rest = createRestClient({ baseUrl: restUrl, timeoutMs: 30_000, rateLimit: false });
  const accountSigner = fastPrivateKeySigner(generatePrivateKey());
  const signerKey = generatePrivateKey();
  const signer = fastPrivateKeySigner(signerKey);
  const account = accountSigner.address;
  const context = await signingContextOf(rest);
  await rest.deposit({ account, amount: '1000' });
  registerNow?.(account);
  const state = await rest.nonceState(account);
  const nonceAnchor = BigInt(state.nonce_anchor) + 1n;
  const expiration = Math.floor(Date.now() / 1000) + 365 * 24 * 3600;
  const message = 'perpbot bench session key';
  const accountSignature = await signTypedStruct(context, accountSigner, 'RegisterSigner', { account, signer: signer.address, message, expiration, nonceAnchor, nonceBitmap: 0 });
  const signerSignature = await signTypedStruct(context, signer, 'VerifySigner', { account, nonceAnchor, nonceBitmap: 0 });
  await rest.registerSigner({
    account,
    signer: signer.address,
    message,
    expiration: String(expiration),
    nonce_anchor: nonceAnchor.toString(),
    nonce_bitmap_index: 0,
    account_signature: accountSignature,
    signer_signature: signerSignature,
  });
  return { account, signer, signerKey, rest, context };
}
