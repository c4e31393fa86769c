import { generatePrivateKey } from 'viem/accounts';
import type { Address } from '../../src/core/address.js';
import { systemClock } from '../../src/core/clock.js';
import { fastPrivateKeySigner } from '../../src/protocol/nativeSigner.js';
import type { SyncDigestSigner } from '../../src/protocol/digestSigner.js';
import type { SigningContext } from '../../src/protocol/signingContext.js';
import { readVenueSigning } from '../../src/venue/venueInfo.js';
import { registerSigner } from '../../src/engine/account/registerSigner.js';
import type { RunningSim } from '../../src/sim/startSim.js';
import { createRestClient, type RestClient } from '../../src/venue/rest/restClient.js';

/**
 * A fresh account on a running simulator: funded by the faucet, registered at once, with an
 * Active session key. Setup is the runtime's own (`registerSigner`), as the CLI does it.
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

/** Domain and router from the venue, as setup reads them. */
export async function signingContextOf(rest: RestClient): Promise<SigningContext> {
  return (await readVenueSigning(rest)).context;
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
  await registerSigner({
    rest,
    context,
    account: accountSigner,
    signer,
    clock: systemClock,
    message: 'perpbot bench session key',
  });
  return { account, signer, signerKey, rest, context };
}
