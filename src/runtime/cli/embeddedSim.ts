import type { Clock } from '../../core/clock.js';
import type { RunningSim } from '../../sim/startSim.js';
import type { NonTradingConfig } from '../config/configSchema.js';
import type { Logger } from '../operations/logging/createLogger.js';
import { selectorsOf } from './cliContext.js';

/** The simulator `perpbot start` and `perpbot probe` run in this process (profile sim, no URLs), per `sim:`. */
export async function startEmbeddedSim(config: NonTradingConfig, clock: Clock, logger: Logger): Promise<RunningSim> {
  // Imported here, not at the top: a command against a real venue never loads the simulator.
  const { startSim } = await import('../../sim/startSim.js');
  const sim = await startSim({
    host: '127.0.0.1',
    port: config.sim.port,
    seed: config.sim.seed,
    blockMs: config.sim.block_ms,
    registrationLagMs: config.sim.registration_lag_ms,
    selectors: selectorsOf(config),
    clock,
    onError: (error) => logger.error({ err: error }, 'simulator internal error'),
  });
  logger.info({ rest: sim.restUrl, ws: sim.wsUrl }, 'embedded simulator started');
  return sim;
}
