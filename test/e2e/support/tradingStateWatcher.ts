import { ignoreElements, tap } from 'rxjs';
import { z } from 'zod';
import { defineStrategy } from '../../../src/strategy/index.js';

/** A test strategy that places nothing and logs every trading state it sees on its stream. */
export default defineStrategy({
  name: 'trading-state-watcher',
  description: 'logs ctx.streams.tradingState()',
  params: z.object({}),
  run: (ctx) =>
    ctx.streams.tradingState().pipe(
      tap((state) => ctx.log.info({ mode: state.mode, reasons: state.reasons }, 'strategy saw trading state')),
      ignoreElements(),
    ),
});
