import { decimalToFixed } from '../../../core/decimal.js';
import { isPerpbotError } from '../../../core/perpbotError.js';
import { parseSimCliArgs } from '../../../sim/simCliArgs.js';
import type { SimFaults } from '../../../sim/simContext.js';
import { resolveFaults } from '../../../sim/simOptions.js';
import { CHAOS_DEFAULT_FAULTS, SIM_FLAG_NAMES } from '../../diagnostics/chaos/chaosFaults.js';
import {
  DEFAULT_CHAOS_MINUTES,
  DEFAULT_MAX_RECONNECT_MS,
  type ChaosOptions,
} from '../../diagnostics/chaos/chaosOptions.js';
import { CliUsageError } from '../cliUsageError.js';

const MAX_MINUTES = 24 * 60;

type Flags = Readonly<Record<string, string | boolean | undefined>>;

/** The flags of `perpbot chaos` as options; paths are resolved by the caller. */
export function chaosOptionsFromFlags(flags: Flags, resolvePath: (path: string) => string): ChaosOptions {
  const sim = simFlags(flags);
  const json = flags['json'];
  const dir = flags['dir'];
  return {
    durationMs: durationOf(flags),
    crash: flags['no-crash'] !== true,
    faults: sim.faults,
    maxReconnectMs: maxReconnectOf(flags),
    ...(sim.seed === undefined ? {} : { seed: sim.seed }),
    ...(sim.blockMs === undefined ? {} : { blockMs: sim.blockMs }),
    ...(sim.registrationLagMs === undefined ? {} : { registrationLagMs: sim.registrationLagMs }),
    ...(typeof json === 'string' ? { jsonPath: resolvePath(json) } : {}),
    ...(typeof dir === 'string' ? { dir: resolvePath(dir) } : {}),
  };
}

/** --max-reconnect-ms: a whole number of milliseconds, 2000 when absent. */
function maxReconnectOf(flags: Flags): number {
  const value = flags['max-reconnect-ms'];
  if (value === undefined || typeof value === 'boolean') return DEFAULT_MAX_RECONNECT_MS;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 3_600_000) {
    throw new CliUsageError(
      `--max-reconnect-ms: invalid value ${JSON.stringify(value)}; expected a whole number of milliseconds from 1 to 3600000, such as 2000`,
    );
  }
  return Number(value);
}

/** --minutes (fractions allowed, to the millisecond) or --seconds; 10 minutes when neither. */
function durationOf(flags: Flags): number {
  const minutes = flags['minutes'];
  const seconds = flags['seconds'];
  if (typeof minutes === 'string' && typeof seconds === 'string') {
    throw new CliUsageError('perpbot chaos: give --minutes or --seconds, not both', ['run perpbot chaos --help']);
  }
  if (typeof seconds === 'string') {
    if (!/^\d+$/.test(seconds) || Number(seconds) < 1 || Number(seconds) > MAX_MINUTES * 60) {
      throw new CliUsageError(
        `--seconds: invalid value ${JSON.stringify(seconds)}; expected a whole number from 1 to ${MAX_MINUTES * 60}`,
      );
    }
    return Number(seconds) * 1000;
  }
  if (typeof minutes !== 'string') return DEFAULT_CHAOS_MINUTES * 60_000;
  // Thousandths of a minute are 60 ms each: the duration stays a whole number of milliseconds.
  let thousandths: bigint;
  try {
    thousandths = /^\d+(\.\d+)?$/.test(minutes) ? decimalToFixed(minutes, 3, '--minutes', 'nearest') : -1n;
  } catch {
    thousandths = -1n;
  }
  const ms = Number(thousandths * 60n);
  if (ms < 1000 || ms > MAX_MINUTES * 60_000) {
    throw new CliUsageError(
      `--minutes: invalid value ${JSON.stringify(minutes)}; expected a number of minutes from 0.017 to ${MAX_MINUTES}, such as 10 or 0.5`,
    );
  }
  return ms;
}

/** The simulator flags, checked by the simulator's own parser so both commands agree. */
function simFlags(flags: Flags): { faults: SimFaults; seed?: number; blockMs?: number; registrationLagMs?: number } {
  const argv = SIM_FLAG_NAMES.flatMap((name) => {
    const value = flags[name];
    return typeof value === 'string' ? [`--${name}`, value] : [];
  });
  try {
    const parsed = parseSimCliArgs(argv);
    const options = parsed.help ? {} : parsed.options;
    return { ...options, faults: resolveFaults(CHAOS_DEFAULT_FAULTS, options.faults ?? {}) };
  } catch (error) {
    throw new CliUsageError(
      `perpbot chaos: ${isPerpbotError(error) || error instanceof Error ? error.message : String(error)}`,
      ['run perpbot chaos --help'],
    );
  }
}
