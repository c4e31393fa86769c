import type { Clock } from '../../core/clock.js';
import { compareDecimals } from '../../core/decimal.js';
import type { Engine } from '../../engine/engine.js';
import type { Logger } from '../operations/logging/createLogger.js';

/**
 * `shutdown.positions: close`: every non-flat position in the bot's markets is closed with a
 * reduce-only market order (strategy `shutdown`), after the cancels so that no resting order
 * reopens it, each waited for until the venue reports it flat (the engine's close, as its
 * margin-mode guard uses), within the shutdown timeout; what is still open is said by the exit report.
 */
export async function closePositionsAtExit(
  engine: Pick<Engine, 'closePositionAndWait' | 'tracker'>,
  markets: readonly number[],
  o: { readonly timeoutMs: number; readonly clock: Clock; readonly logger: Pick<Logger, 'info' | 'warn'> },
): Promise<void> {
  const open = markets.filter((m) => {
    const position = engine.tracker.position(m);
    return position !== undefined && compareDecimals(position.size, '0') !== 0;
  });
  if (open.length === 0) return;
  const closes = Promise.all(
    open.map((marketId) => engine.closePositionAndWait(marketId, 'shutdown', `shutdown-${marketId}-${o.clock.now()}`)),
  );
  const flat = await Promise.race([closes, o.clock.sleep(o.timeoutMs).then(() => undefined)]);
  if (flat === undefined) {
    o.logger.warn({ markets: open, timeoutMs: o.timeoutMs }, 'positions not closed before the shutdown timeout');
    return;
  }
  o.logger.info(
    { closed: open.filter((_, i) => flat[i]), stillOpen: open.filter((_, i) => !flat[i]) },
    'positions closed on shutdown (shutdown.positions: close)',
  );
}
