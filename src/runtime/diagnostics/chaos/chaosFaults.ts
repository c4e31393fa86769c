import type { SimFaults } from '../../../sim/simContext.js';

/**
 * The faults `perpbot chaos` turns on unless told otherwise: a bad but survivable day on the
 * venue. 5 % of REST requests answer 5xx, half of those after the action ran (the reply is lost,
 * the order is on the book); every request waits 0-200 ms more; every WebSocket connection is
 * dropped about every 20 s; every stream goes silent for 1 s (the simulator's own default stall)
 * about every 30 s: a stall the client rides out without reconnecting, unless it meets a drop.
 */
export const CHAOS_DEFAULT_FAULTS: SimFaults = Object.freeze({
  latencyMs: 0,
  jitterMs: 200,
  errorRate: 0.05,
  errorAfterActionShare: 0.5,
  wsDropEveryMs: 20_000,
  wsStallEveryMs: 30_000,
  wsStallForMs: 1_000,
});

/**
 * The simulator flags `perpbot chaos` takes, named and parsed exactly as `perpbot sim` has them
 * (the values are handed to the simulator's own argument parser).
 */
export const SIM_FLAG_NAMES = [
  'latency-ms',
  'jitter-ms',
  'error-rate',
  'error-after-share',
  'ws-drop-every-ms',
  'ws-stall-every-ms',
  'ws-stall-for-ms',
  'registration-lag-ms',
  'seed',
  'block-ms',
] as const;

export type SimFlagName = (typeof SIM_FLAG_NAMES)[number];

/** Help text of each simulator flag, with the chaos default where it differs from the simulator's. */
export const SIM_FLAG_HELP: Readonly<Record<SimFlagName, { value: string; description: string }>> = {
  'latency-ms': {
    value: 'N',
    description: `added latency per REST request (default ${CHAOS_DEFAULT_FAULTS.latencyMs})`,
  },
  'jitter-ms': {
    value: 'N',
    description: `extra random latency 0..N per request (default ${CHAOS_DEFAULT_FAULTS.jitterMs})`,
  },
  'error-rate': {
    value: '0..1',
    description: `share of REST requests answered with a 5xx (default ${CHAOS_DEFAULT_FAULTS.errorRate})`,
  },
  'error-after-share': {
    value: '0..1',
    description: `share of those 5xx given after the action ran (default ${CHAOS_DEFAULT_FAULTS.errorAfterActionShare})`,
  },
  'ws-drop-every-ms': {
    value: 'N',
    description: `drop every WebSocket about every N ms, 0 never (default ${CHAOS_DEFAULT_FAULTS.wsDropEveryMs})`,
  },
  'ws-stall-every-ms': {
    value: 'N',
    description: `stall every stream about every N ms, 0 never (default ${CHAOS_DEFAULT_FAULTS.wsStallEveryMs})`,
  },
  'ws-stall-for-ms': {
    value: 'N',
    description: `how long each stall lasts (default ${CHAOS_DEFAULT_FAULTS.wsStallForMs})`,
  },
  'registration-lag-ms': {
    value: 'N',
    description: 'deposit-to-registered lag (default: sim.registration_lag_ms of the config)',
  },
  seed: {
    value: 'N',
    description: 'simulator seed: oracle, makers and fault timing (default: sim.seed of the config)',
  },
  'block-ms': { value: 'N', description: 'block interval in ms (default: sim.block_ms of the config)' },
};
