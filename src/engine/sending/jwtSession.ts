import type { Address } from '../../core/address.js';
import { unixSeconds, type Clock } from '../../core/clock.js';
import { registerRecentSecret } from '../../core/secretRegistry.js';
import type { SignerLike } from '../../protocol/digestSigner.js';
import type { SigningContext } from '../../protocol/signingContext.js';
import { signTypedStruct } from '../../protocol/typedSignatures.js';
import type { RestClient } from '../../venue/rest/restClient.js';

export interface JwtSessionOptions {
  readonly rest: RestClient;
  readonly account: Address;
  /** The account key: the JWT login is signed by the main wallet, not the session key. */
  readonly accountSigner: SignerLike;
  readonly context: () => SigningContext;
  readonly clock: Clock;
  /** Refresh this many seconds before the access token expires. */
  readonly refreshMarginSeconds?: number;
  /** Deadline of the login signature, seconds from now. */
  readonly loginDeadlineSeconds?: number;
}

interface Tokens {
  readonly access: string;
  readonly refresh: string;
  readonly expiresAtMs: number;
}

/**
 * JWT authorisation (spec "JWT path"): logs in with the account key over a single-use server
 * nonce, then hands out the access token, refreshing it before it expires (and logging in again
 * when the refresh is refused). Concurrent callers share one login or refresh.
 */
export class JwtSession {
  private tokens: Tokens | undefined;
  private inProgress: Promise<Tokens> | undefined;

  constructor(private readonly options: JwtSessionOptions) {}

  /** A valid access token, logging in or refreshing first when needed. */
  async bearer(): Promise<string> {
    const margin = (this.options.refreshMarginSeconds ?? 60) * 1000;
    const current = this.tokens;
    if (current !== undefined && this.options.clock.now() < current.expiresAtMs - margin) return current.access;
    this.inProgress ??= this.renew(current).finally(() => {
      this.inProgress = undefined;
    });
    return (await this.inProgress).access;
  }

  /** Drops the tokens (after an Unauthenticated answer): the next call logs in again. */
  invalidate(): void {
    this.tokens = undefined;
  }

  private async renew(current: Tokens | undefined): Promise<Tokens> {
    if (current !== undefined) {
      try {
        return this.keep(await this.options.rest.refresh({ refresh_token: current.refresh }));
      } catch {
        // A refused refresh (expired or rotated token) falls back to a fresh login.
      }
    }
    return this.keep(await this.login());
  }

  private async login(): Promise<{ access_token: string; refresh_token: string; expires_in: number }> {
    const { rest, account, clock } = this.options;
    const { nonce } = await rest.loginNonce(account);
    const deadline = unixSeconds(clock) + (this.options.loginDeadlineSeconds ?? 120);
    const signature = await signTypedStruct(this.options.context(), this.options.accountSigner, 'Login', {
      account,
      nonce: BigInt(nonce),
      deadline,
    });
    registerRecentSecret(signature);
    return rest.login({ account, nonce, deadline, signature });
  }

  private keep(pair: { access_token: string; refresh_token: string; expires_in: number }): Tokens {
    // The redactor recognises both wherever they turn up (an error body, a message).
    registerRecentSecret(pair.access_token);
    registerRecentSecret(pair.refresh_token);
    const tokens = {
      access: pair.access_token,
      refresh: pair.refresh_token,
      expiresAtMs: this.options.clock.now() + pair.expires_in * 1000,
    };
    this.tokens = tokens;
    return tokens;
  }
}
