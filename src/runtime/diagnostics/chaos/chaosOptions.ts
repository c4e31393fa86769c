import type { SimFaults } from '../../../sim/simContext.js';

/** What one `perpbot chaos` run does, from its flags. */
export interface ChaosOptions {
  /** How long the strategies run, from the first start to the final stop. */
  readonly durationMs: number;
  /** One SIGKILL of the bot half-way, then a restart. */
  readonly crash: boolean;
  readonly faults: SimFaults;
  /** Overrides of the config's `sim:` section. */
  readonly seed?: number;
  readonly blockMs?: number;
  readonly registrationLagMs?: number;
  /** Where the report goes as JSON (absolute). */
  readonly jsonPath?: string;
  /** Where the journal, bot config and logs go (absolute); a temporary directory otherwise. */
  readonly dir?: string;
  /** The longest a reconnect may take, from the disconnect to trading again (the goal: under 2 s). */
  readonly maxReconnectMs: number;
}

export const DEFAULT_MAX_RECONNECT_MS = 2_000;

export const DEFAULT_CHAOS_MINUTES = 10;
