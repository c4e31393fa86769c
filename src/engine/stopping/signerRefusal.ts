import type { TradingStop } from './tradingStop.js';
import type { VenueInfo } from '../../venue/venueInfo.js';
import type { Logger } from '../../core/logger.js';

/**
 * The venue refusing our signer (SignerNotAuthorized). Trading stops at once; the refusal is
 * definite only once it survives a fresh read of the domain and the system config: when either
 * changed (a redeploy), permits signed from now on use the new addresses and trading resumes;
 * when nothing changed (or the config cannot be read), the signer itself is refused and trading
 * stops for good.
 */
export class SignerRefusal {
  private refusal: unknown;
  private confirming: Promise<void> | undefined;

  constructor(
    private readonly o: {
      readonly venue: Pick<VenueInfo, 'refreshSigning'>;
      readonly tradingStop: Pick<TradingStop, 'stop'>;
      readonly log: Logger;
    },
  ) {}

  /** True while the signer stands refused: intents are refused meanwhile. */
  get refused(): boolean {
    return this.refusal !== undefined;
  }

  /** Why trading stopped, or undefined while the signer is not refused. */
  get reason(): string | undefined {
    return this.refusal === undefined ? undefined : 'the venue refused the signer (SignerNotAuthorized)';
  }

  /**
   * The executor's reaction to a SignerNotAuthorized answer. Every intent in flight may get one
   * at once: the first starts the check and all of them wait for it.
   */
  onRefused(error: unknown): Promise<void> | undefined {
    if (this.refusal !== undefined) return this.confirming;
    this.refusal = error;
    this.o.log.error(
      { err: error },
      'the venue refused our signer: trading stopped; check permit target = addresses.router',
    );
    this.confirming = this.confirm();
    return this.confirming;
  }

  private async confirm(): Promise<void> {
    const { log, tradingStop } = this.o;
    try {
      const { changed } = await this.o.venue.refreshSigning();
      if (changed) {
        log.warn({}, "the venue's domain or router changed: permits now use the new addresses; trading resumes");
        this.refusal = undefined;
        return;
      }
      tradingStop.stop(
        'signer_not_authorized',
        'the venue refused the signer (SignerNotAuthorized) and the system config is unchanged: the signer itself is refused (revoked?)',
      );
    } catch (refreshError) {
      log.error({ err: refreshError }, 'refreshing the system config failed');
      tradingStop.stop(
        'signer_not_authorized',
        'the venue refused the signer (SignerNotAuthorized) and the system config could not be read again',
        refreshError,
      );
    }
  }
}
