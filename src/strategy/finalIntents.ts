import { isObservable, type Observable } from 'rxjs';
import type { IntentOutcome } from '../engine/intents/intentOutcome.js';
import type { Intent } from '../engine/intents/intents.js';
import type { FinalIntents } from './strategyDefinition.js';

export interface FinalIntentsResult {
  readonly sent: number;
  /** Sent intents that had their outcome before the deadline. */
  readonly settled: number;
  readonly timedOut: boolean;
}

/**
 * Sends what a strategy's `onStop` returned and waits until each intent sent has its outcome, or
 * until `deadline` resolves. `send` submits one intent and says whether it went (the host checks
 * it as any other). Outcomes are watched before the first send, so an answer given at once counts.
 */
export async function sendFinalIntents(
  returned: void | FinalIntents,
  send: (intent: Intent) => boolean,
  outcomes: Observable<IntentOutcome>,
  deadline: Promise<void>,
): Promise<FinalIntentsResult> {
  if (returned === undefined) return { sent: 0, settled: 0, timedOut: false };
  const pending = new Set<string>();
  let sent = 0;
  let settled = 0;
  let allSettled: (() => void) | undefined;
  const watch = outcomes.subscribe((outcome) => {
    if (!pending.delete(outcome.intentId)) return;
    settled += 1;
    if (pending.size === 0) allSettled?.();
  });
  const submit = (intent: Intent): void => {
    pending.add(intent.intentId);
    if (send(intent)) sent += 1;
    else pending.delete(intent.intentId);
  };
  let timedOut = false;
  const timeout = deadline.then(() => {
    timedOut = true;
  });
  try {
    if (isObservable(returned)) {
      await Promise.race([
        new Promise<void>((resolve, reject) => {
          const subscription = returned.subscribe({ next: submit, error: reject, complete: resolve });
          const unsubscribe = (): void => subscription.unsubscribe();
          timeout.then(unsubscribe, unsubscribe);
        }),
        timeout,
      ]);
    } else {
      for (const intent of returned) submit(intent);
    }
    if (pending.size > 0 && !timedOut)
      await Promise.race([new Promise<void>((resolve) => (allSettled = resolve)), timeout]);
    return { sent, settled, timedOut: timedOut || pending.size > 0 };
  } finally {
    watch.unsubscribe();
  }
}
