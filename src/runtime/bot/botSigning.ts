import type { Clock } from '../../core/clock.js';
import { PerpbotError } from '../../core/perpbotError.js';
import { JwtSession } from '../../engine/sending/jwtSession.js';
import type { SyncDigestSigner } from '../../protocol/digestSigner.js';
import { fastPrivateKeySigner } from '../../protocol/nativeSigner.js';
import type { SigningContext } from '../../protocol/signingContext.js';
import type { RestClient } from '../../venue/rest/restClient.js';

export interface SigningKeys {
  /** The account key is needed only in JWT mode (the login is signed by the main wallet). */
  readonly account: { readonly address: `0x${string}`; readonly privateKey?: `0x${string}` };
  readonly signer: { readonly privateKey: `0x${string}` };
}

/**
 * The bot's keys as the engine and the WebSocket use them: the session signer, and in JWT mode
 * the session that logs in with the account key. Both sign for the venue's domain, which is known
 * only once the engine has read it: `contextFrom(engine)` records it after the engine started,
 * and a JWT login before then fails instead of signing for nothing.
 */
export class BotSigning {
  readonly signer: SyncDigestSigner;
  readonly jwt: JwtSession | undefined;
  private context: SigningContext | undefined;

  /** Throws KEY_MISSING in JWT mode without the account key, before anything reads the venue. */
  constructor(keys: SigningKeys, authMode: 'permit' | 'jwt', rest: RestClient, clock: Clock) {
    this.signer = fastPrivateKeySigner(keys.signer.privateKey);
    this.jwt = authMode === 'jwt' ? jwtSessionFor(keys.account, rest, clock, () => this.context) : undefined;
  }

  /** The started engine's signing context, from now on also the JWT login's. */
  contextFrom(engine: { readonly signingContext: SigningContext | undefined }): SigningContext {
    const context = engine.signingContext;
    if (context === undefined)
      throw new PerpbotError('the engine started without a signing context', { code: 'ENGINE_NOT_STARTED' });
    this.context = context;
    return context;
  }
}

/** JWT mode: the session logs in with the account key and refreshes before the token expires. */
function jwtSessionFor(
  account: SigningKeys['account'],
  rest: RestClient,
  clock: Clock,
  context: () => SigningContext | undefined,
): JwtSession {
  const accountKey = account.privateKey;
  if (accountKey === undefined) {
    throw new PerpbotError('auth mode jwt needs the account key: the JWT login is signed by the main wallet', {
      code: 'KEY_MISSING',
      hints: ['set PERPBOT_ACCOUNT_KEY or keys.account_key_file, or use auth.mode: permit'],
    });
  }
  return new JwtSession({
    rest,
    account: account.address,
    accountSigner: fastPrivateKeySigner(accountKey),
    clock,
    context: () => {
      const c = context();
      if (c === undefined)
        throw new PerpbotError('JWT login before the engine read the venue domain', { code: 'ENGINE_NOT_STARTED' });
      return c;
    },
  });
}
