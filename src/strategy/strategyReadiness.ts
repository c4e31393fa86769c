import { Observable, Subscription, type SchedulerLike } from 'rxjs';
import type { StrategyContext } from './strategyContext.js';

/** How often the host logs what a strategy still waits for. */
export const READINESS_LOG_EVERY_MS = 10_000;

/**
 * The default readiness of a strategy: every market it trades has a mark and a book, and the
 * engine is trading (private feeds up and reconciled). Emits once, then completes. While waiting
 * it logs what is missing every `READINESS_LOG_EVERY_MS` on the strategy clock.
 */
export function marketsReady(ctx: StrategyContext, scheduler: SchedulerLike): Observable<void> {
  return new Observable<void>((subscriber) => {
    const missing = new Set<string>([
      ...ctx.markets.flatMap((m) => [`mark of market ${m}`, `book of market ${m}`]),
      'engine trading',
    ]);
    const seen = (what: string) => () => {
      if (!missing.delete(what) || missing.size > 0) return;
      subscriber.next();
      subscriber.complete();
    };
    const subscription = new Subscription();
    const fail = (error: unknown) => subscriber.error(error);
    for (const m of ctx.markets) {
      subscription.add(ctx.streams.mark(m).subscribe({ next: seen(`mark of market ${m}`), error: fail }));
      subscription.add(ctx.streams.book(m).subscribe({ next: seen(`book of market ${m}`), error: fail }));
    }
    subscription.add(
      ctx.streams.tradingState().subscribe({
        // Trading may stop being possible again before the strategy starts: then it waits again.
        next: (state) => (state.mode === 'trading' ? seen('engine trading')() : missing.add('engine trading')),
        error: fail,
      }),
    );
    const log = scheduler.schedule(function () {
      if (missing.size === 0) return;
      ctx.log.warn({ waitingFor: [...missing] }, 'strategy waits for its markets before it runs');
      this.schedule(undefined, READINESS_LOG_EVERY_MS);
    }, READINESS_LOG_EVERY_MS);
    return () => {
      subscription.unsubscribe();
      log.unsubscribe();
    };
  });
}
