import { InvalidValueError } from '../core/invalidValueError.js';
import { SPEC_SELECTORS, type SelectorTable } from '../protocol/selectors.js';
import { DEFAULT_MARKETS, type MarketDefinition } from './exchange/markets.js';
import { NO_FAULTS, type SimFaults, type SimOptions } from './simContext.js';
import { DEFAULT_BLOCK_MS } from './simDefaults.js';
import { checkWireDepartures, type WireDeparture } from './ws/wireDepartures.js';

/** What `startSim` accepts; every field has a default. */
export interface StartSimOptions {
  readonly host?: string;
  /** 0 picks a free port. */
  readonly port?: number;
  readonly seed?: number;
  /**
   * Number orders, fills and trades from 1, the same every run (for a test that asserts ids).
   * Default false: each run counts from random bases, so its ids are unique across runs and
   * processes like the venue's (`exchange/simIdBases.ts`); the seed does not change them.
   */
  readonly deterministicIds?: boolean;
  /** Default 250 (as the embedded simulator's sim.block_ms); 0 disables automatic blocks. */
  readonly blockMs?: number;
  /** Default 2000. */
  readonly registrationLagMs?: number;
  readonly faults?: Partial<SimFaults>;
  readonly markets?: readonly MarketDefinition[];
  readonly selectors?: SelectorTable;
  readonly chainId?: number;
  readonly bodyLimitBytes?: number;
  /** Default 500 (venue-facts); 0 disables the per-IP limit. */
  readonly restRequestsPer10s?: number;
  /** Test switches that make one part of the wire depart from the venue's shape; default none. */
  readonly wireDepartures?: readonly WireDeparture[];
  /** A TP/SL's trigger-to-execution lag in ms; default 500. */
  readonly tpslLagMs?: number;
  /** Serve the test controls (`POST /_sim/mark`) to loopback clients; default false. */
  readonly admin?: boolean;
  /** Refuse every TP/SL placement, as the venue's page says it may ("blocked pending signature verification"). */
  readonly refuseTpsl?: boolean;
}

export const DEFAULT_SIM_OPTIONS = Object.freeze({
  host: '127.0.0.1',
  port: 0,
  seed: 1,
  blockMs: DEFAULT_BLOCK_MS,
  registrationLagMs: 2000,
  chainId: 31337,
  bodyLimitBytes: 64 * 1024,
  restRequestsPer10s: 500,
  tpslLagMs: 500,
});

export function resolveSimOptions(input: StartSimOptions = {}): SimOptions {
  const port = checkWhole(input.port ?? DEFAULT_SIM_OPTIONS.port, 'port', 65_535);
  return Object.freeze({
    host: input.host ?? DEFAULT_SIM_OPTIONS.host,
    port,
    seed: checkWhole(input.seed ?? DEFAULT_SIM_OPTIONS.seed, 'seed', 0xffff_ffff),
    deterministicIds: input.deterministicIds === true,
    blockMs: checkWhole(input.blockMs ?? DEFAULT_SIM_OPTIONS.blockMs, 'blockMs', 3_600_000),
    registrationLagMs: checkWhole(
      input.registrationLagMs ?? DEFAULT_SIM_OPTIONS.registrationLagMs,
      'registrationLagMs',
      3_600_000,
    ),
    faults: resolveFaults(NO_FAULTS, input.faults ?? {}),
    markets: input.markets ?? DEFAULT_MARKETS,
    selectors: input.selectors ?? SPEC_SELECTORS,
    chainId: checkWhole(input.chainId ?? DEFAULT_SIM_OPTIONS.chainId, 'chainId', Number.MAX_SAFE_INTEGER, 1),
    bodyLimitBytes: checkWhole(
      input.bodyLimitBytes ?? DEFAULT_SIM_OPTIONS.bodyLimitBytes,
      'bodyLimitBytes',
      16 * 1024 * 1024,
      1,
    ),
    restRequestsPer10s: checkWhole(
      input.restRequestsPer10s ?? DEFAULT_SIM_OPTIONS.restRequestsPer10s,
      'restRequestsPer10s',
      1_000_000,
    ),
    wireDepartures: checkWireDepartures(input.wireDepartures ?? [], 'wireDepartures'),
    tpslLagMs: checkWhole(input.tpslLagMs ?? DEFAULT_SIM_OPTIONS.tpslLagMs, 'tpslLagMs', 3_600_000),
    admin: input.admin === true,
    refuseTpsl: input.refuseTpsl === true,
  });
}

/** Merges and checks fault settings: delays and periods are whole milliseconds, rates are shares 0..1. */
export function resolveFaults(base: SimFaults, change: Partial<SimFaults>): SimFaults {
  return Object.freeze({
    latencyMs: checkWhole(change.latencyMs ?? base.latencyMs, 'faults.latencyMs', 60_000),
    jitterMs: checkWhole(change.jitterMs ?? base.jitterMs, 'faults.jitterMs', 60_000),
    errorRate: checkShare(change.errorRate ?? base.errorRate, 'faults.errorRate'),
    errorAfterActionShare: checkShare(
      change.errorAfterActionShare ?? base.errorAfterActionShare,
      'faults.errorAfterActionShare',
    ),
    wsDropEveryMs: checkWhole(change.wsDropEveryMs ?? base.wsDropEveryMs, 'faults.wsDropEveryMs', 3_600_000),
    wsStallEveryMs: checkWhole(change.wsStallEveryMs ?? base.wsStallEveryMs, 'faults.wsStallEveryMs', 3_600_000),
    wsStallForMs: checkWhole(change.wsStallForMs ?? base.wsStallForMs, 'faults.wsStallForMs', 600_000, 1),
  });
}

function checkWhole(value: number, field: string, max: number, min = 0): number {
  if (!Number.isSafeInteger(value) || value < min || value > max)
    throw new InvalidValueError(field, value, `an integer ${min} to ${max}`);
  return value;
}

function checkShare(value: number, field: string): number {
  if (!Number.isFinite(value) || value < 0 || value > 1)
    throw new InvalidValueError(field, value, 'a share from 0 to 1');
  return value;
}
