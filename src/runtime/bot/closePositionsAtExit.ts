import type { Clock } from '../../core/clock.js';
import { compareDecimals } from '../../core/decimal.js';
import type { Engine } from '../../engine/engine.js';
import { closePosition } from '../../engine/intents/intentBuilders.js';
import type { Logger } from '../logging/createLogger.js';

/** Polls of the tracker's position after the closes, before the exit's venue read says the rest. */
const FLAT_POLL_MS = 100;

/**
 * `shutdown.positions: close`: every non-flat position in the bot's markets is closed with a
 * reduce-only market order (a closePosition intent of the `shutdown` strategy), after the
 * cancels so that no resting order reopens it. Waits, within the shutdown timeout, until the
 * positions channel reports each market flat; what is still open is said by the exit report.
 */
export async function closePositionsAtExit(
  engine: Pick<Engine, 'execute' | 'tracker'>,
  markets: readonly number[],
  o: { readonly timeoutMs: number; readonly clock: Clock; readonly logger: Pick<Logger, 'info' | 'warn'> },
): Promise<void> {
  const open = markets.filter((m) => !isFlat(engine, m));
  if (open.length === 0) return;
  const deadline = o.clock.now() + o.timeoutMs;
  const outcomes = await Promise.race([
    Promise.all(
      open.map((marketId) =>
        engine.execute(
          closePosition({ intentId: `shutdown-close-${marketId}-${o.clock.now()}`, strategy: 'shutdown', marketId }),
        ),
      ),
    ),
    o.clock.sleep(o.timeoutMs).then(() => undefined),
  ]);
  if (outcomes === undefined) {
    o.logger.warn({ markets: open, timeoutMs: o.timeoutMs }, 'positions not closed before the shutdown timeout');
    return;
  }
  while (open.some((m) => !isFlat(engine, m)) && o.clock.now() < deadline) await o.clock.sleep(FLAT_POLL_MS);
  o.logger.info(
    {
      outcomes: outcomes.map((x) => ({ marketId: x.marketId, type: x.type })),
      stillOpen: open.filter((m) => !isFlat(engine, m)),
    },
    'positions closed on shutdown (shutdown.positions: close)',
  );
}

function isFlat(engine: Pick<Engine, 'tracker'>, marketId: number): boolean {
  const position = engine.tracker.position(marketId);
  return position === undefined || compareDecimals(position.size, '0') === 0;
}
