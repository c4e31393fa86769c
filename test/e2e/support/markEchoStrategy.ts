import { ignoreElements, tap } from 'rxjs';
import { z } from 'zod';
import { defineStrategy } from '../../../src/strategy/index.js';

/**
 * A test strategy that trades nothing and logs every mark it is handed ("mark seen"): a test
 * waits for a count of these lines to know the strategies beside it have been handed those marks
 * too, instead of sleeping and hoping they were.
 */
export default defineStrategy({
  name: 'mark-echo',
  description: 'logs every mark of its markets; places nothing',
  params: z.object({}),
  run: (ctx) =>
    ctx.streams.mark(ctx.markets[0]!).pipe(
      tap((m) => ctx.log.info({ mark: m.markPrice }, 'mark seen')),
      ignoreElements(),
    ),
});
