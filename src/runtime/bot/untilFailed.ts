import { catchError, EMPTY, type Observable } from 'rxjs';

/**
 * A feed for listeners other than the engine: when it fails it just ends for them, since the
 * engine reports the failure (attach's onFeedLost) and RxJS would otherwise rethrow it as unhandled.
 */
export function untilFailed<T>(feed: Observable<T>): Observable<T> {
  return feed.pipe(catchError(() => EMPTY));
}
