import { InvalidValueError } from '../../core/invalidValueError.js';
import type { Eip712Domain } from '../schemas/restAuth.js';
import type { Market, Markets } from '../schemas/restMarkets.js';
import type { SystemConfig } from '../schemas/restSystem.js';
import type { RestClient } from './restClient.js';

type Source = Pick<RestClient, 'eip712Domain' | 'systemConfig' | 'markets'>;

/** Waits for `promise` but gives up when this caller's signal aborts (others keep waiting). */
function withSignal<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/**
 * Domain, system config and markets change only on a redeploy or a listing, so they are read once
 * and kept until `refresh()` (call it after SignerNotAuthorized, a redeploy, or on a schedule).
 * Concurrent first reads share one request; a failed read is not cached.
 */
export class VenueInfoCache {
  private readonly source: Source;
  private domainPromise: Promise<Eip712Domain> | undefined;
  private configPromise: Promise<SystemConfig> | undefined;
  private marketsPromise: Promise<Markets> | undefined;

  constructor(source: Source) {
    this.source = source;
  }

  domain(signal?: AbortSignal): Promise<Eip712Domain> {
    this.domainPromise ??= this.keepOnSuccess(this.source.eip712Domain(), () => (this.domainPromise = undefined));
    return withSignal(this.domainPromise, signal);
  }

  systemConfig(signal?: AbortSignal): Promise<SystemConfig> {
    this.configPromise ??= this.keepOnSuccess(this.source.systemConfig(), () => (this.configPromise = undefined));
    return withSignal(this.configPromise, signal);
  }

  markets(signal?: AbortSignal): Promise<Markets> {
    this.marketsPromise ??= this.keepOnSuccess(this.source.markets(), () => (this.marketsPromise = undefined));
    return withSignal(this.marketsPromise, signal);
  }

  /** One market by id; an unknown id is an error naming the ids that exist. */
  async market(marketId: string, signal?: AbortSignal): Promise<Market> {
    const { markets } = await this.markets(signal);
    const found = markets.find((m) => m.market_id === marketId);
    if (found === undefined) {
      throw new InvalidValueError('market_id', marketId, `one of ${markets.map((m) => m.market_id).join(', ') || '(no markets)'}`, 'check the market id against GET /v1/markets');
    }
    return found;
  }

  /** Drops everything cached; the next reads go to the venue. */
  invalidate(): void {
    this.domainPromise = undefined;
    this.configPromise = undefined;
    this.marketsPromise = undefined;
  }

  /** Drops the cache and reads all three again. */
  async refresh(signal?: AbortSignal): Promise<{ domain: Eip712Domain; systemConfig: SystemConfig; markets: Markets }> {
    this.invalidate();
    const [domain, systemConfig, markets] = await Promise.all([this.domain(signal), this.systemConfig(signal), this.markets(signal)]);
    return { domain, systemConfig, markets };
  }

  private keepOnSuccess<T>(promise: Promise<T>, forget: () => void): Promise<T> {
    const kept = promise.catch((error: unknown) => {
      if (this.isCurrent(kept)) forget();
      throw error;
    });
    return kept;
  }

  private isCurrent(promise: Promise<unknown>): boolean {
    return promise === this.domainPromise || promise === this.configPromise || promise === this.marketsPromise;
  }
}
