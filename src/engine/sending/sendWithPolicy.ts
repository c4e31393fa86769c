import { unixSeconds } from '../../core/clock.js';
import { hasNoDefiniteAnswer } from '../../venue/venueTransportError.js';
import type { SendReceipt } from './actionSender.js';
import { journalBody, NO_JOURNAL } from '../tracking/engineJournal.js';
import { IntentFailedError, type ExecutorDeps } from './executorDeps.js';
import type { Intent } from '../intents/intents.js';
import type { NonceAllocator, NonceFate } from '../nonces/nonceAllocator.js';
import type { NoncePair } from '../nonces/noncePair.js';
import { classifyFailure, classifyLanding } from './retryPolicy.js';
import { signRequest, type ResolvedAction, type SignedRequest } from './signedRequest.js';

/**
 * Signs one resolved action and sends it until the retry policy reaches a verdict: the same bytes
 * again after an answerless failure, a new signature with a new nonce only once the old pair is
 * known not to have executed. A permit whose deadline has passed locally is never sent: it is
 * re-signed when every earlier send of it was definitely refused, otherwise confirmed first.
 * Confirming means reading the venue's state (`readLandingEvidence`); a read that cannot tell
 * ends `unknown`, never `accepted`.
 */
export type SendResult =
  | { type: 'accepted'; receipt: SendReceipt; request: SignedRequest }
  | { type: 'failed'; error: unknown }
  /** It may have executed and the venue's state does not show whether (error code OUTCOME_UNCONFIRMED). */
  | { type: 'unknown'; error: IntentFailedError };

/** A failure after which the action may still have executed: the order's state is unknown, not failed. */
export function isUnconfirmed(error: unknown): boolean {
  return (error instanceof IntentFailedError && error.code === 'OUTCOME_UNCONFIRMED') || hasNoDefiniteAnswer(error);
}

/** New signatures per intent after deadlines passed, before it fails (a too-short deadline). */
const MAX_DEADLINE_RESIGNS = 5;

export async function sendWithPolicy(
  intent: Intent,
  action: ResolvedAction,
  deps: ExecutorDeps,
  signal?: AbortSignal,
): Promise<SendResult> {
  const maxResyncs = deps.maxResyncs ?? 3;
  let resyncs = 0;
  let deadlineResigns = 0;
  // New signatures after a venue read showed the first send had not taken effect.
  let landingResigns = 0;
  // JWT mode: times a refused token was dropped and the request sent again.
  let reauthentications = 0;
  const canReauthenticate = deps.auth.mode === 'jwt' && deps.sender.reauthenticate !== undefined;
  for (;;) {
    const signing = sign(intent.intentId, action, deps, signal);
    const request = signing instanceof Promise ? await signing : signing;
    // Sends of these exact bytes that got no definite answer: only after one of those can a nonce
    // error mean "the first send executed".
    let unansweredBefore = 0;
    let resign = false;
    for (let attempt = 1; !resign; attempt++) {
      signal?.throwIfAborted();
      if (request.deadline !== undefined && unixSeconds(deps.clock) >= request.deadline) {
        const reason = `the permit deadline ${request.deadline} passed before send ${attempt}`;
        if (unansweredBefore > 0) {
          reportFate(deps, request, 'unknown');
          const confirmed = await confirmFirstSend(
            intent,
            action,
            request,
            deps,
            `${reason}, after a send with no definite answer`,
            undefined,
            landingResigns,
            signal,
          );
          if (confirmed !== 'resign') return confirmed;
          landingResigns++;
          break;
        }
        // Every earlier send was definitely refused, so the pair was not consumed: sign anew.
        reportFate(deps, request, 'rejected');
        if (++deadlineResigns > MAX_DEADLINE_RESIGNS) {
          return {
            type: 'failed',
            error: new IntentFailedError(`${reason}, ${deadlineResigns} times`, {
              code: 'PERMIT_DEADLINE_TOO_SHORT',
              details: { permitDeadlineSeconds: deps.permitDeadlineSeconds },
              hints: [
                'raise permitDeadlineSeconds (auth.permit_deadline_seconds) above the retry delays',
                'check the local clock',
              ],
            }),
          };
        }
        deps.log.info(
          { intentId: intent.intentId, deadline: request.deadline },
          'permit deadline passed before sending: signing again with a new nonce',
        );
        break;
      }
      // Without a journal there is no one to read the entries: skip building them (body copies).
      const journaled = deps.journal !== NO_JOURNAL;
      if (journaled) {
        deps.journal.requestSent({
          intentId: intent.intentId,
          endpoint: request.endpoint,
          body: journalBody(request.body),
          ...(request.nonce === undefined ? {} : { nonce: request.nonce }),
          attempt,
          atMs: deps.clock.now(),
        });
      }
      try {
        const receipt = await deps.sender.send(request, signal === undefined ? {} : { signal });
        if (journaled)
          deps.journal.responseReceived({
            intentId: intent.intentId,
            attempt,
            ok: true,
            ...(receipt.orderId === undefined ? {} : { orderId: receipt.orderId }),
            atMs: deps.clock.now(),
          });
        // A dry run stands in for a venue that consumed the pair, so the allocator keeps rolling
        // anchors as it would live instead of waiting forever for a landing that never comes.
        reportFate(deps, request, 'landed');
        return { type: 'accepted', receipt, request };
      } catch (error) {
        if (journaled)
          deps.journal.responseReceived({
            intentId: intent.intentId,
            attempt,
            ok: false,
            error: error instanceof Error ? error.message : String(error),
            atMs: deps.clock.now(),
          });
        const deadlinePassed = request.deadline !== undefined && unixSeconds(deps.clock) >= request.deadline;
        const decision = classifyFailure(
          error,
          { attempt, deadlinePassed, unansweredBefore, ...(canReauthenticate ? { reauthentications } : {}) },
          deps.config.retry,
        );
        if (hasNoDefiniteAnswer(error)) unansweredBefore++;
        deps.log.debug(
          { intentId: intent.intentId, attempt, action: decision.action, reason: decision.reason },
          'send failed',
        );
        if (decision.nonceFate !== 'in_flight') reportFate(deps, request, decision.nonceFate);
        switch (decision.action) {
          case 'retry_same_after_delay':
          case 'resend_identical':
            await deps.clock.sleep(decision.delayMs, signal);
            continue;
          case 'confirm_landed': {
            const confirmed = await confirmFirstSend(
              intent,
              action,
              request,
              deps,
              decision.reason,
              error,
              landingResigns,
              signal,
            );
            if (confirmed !== 'resign') return confirmed;
            landingResigns++;
            resign = true;
            break;
          }
          case 'resign_new_nonce':
            resign = true;
            break;
          case 'resync_nonces_then_resign':
            if (deps.auth.mode !== 'permit' || ++resyncs > maxResyncs) return { type: 'failed', error };
            deps.auth.allocator.resync(await deps.readNonceState());
            deps.log.warn({ intentId: intent.intentId, reason: decision.reason }, 'nonce state resynced');
            resign = true;
            break;
          case 'stop_signer_not_authorized':
            await deps.onSignerNotAuthorized(error);
            return { type: 'failed', error };
          case 'reauthenticate_then_resend':
            reauthentications++;
            deps.sender.reauthenticate?.();
            deps.log.warn({ intentId: intent.intentId, reason: decision.reason }, 'JWT refused: logging in again');
            continue;
          case 'fail':
            return { type: 'failed', error };
        }
      }
    }
  }
}

function reportFate(deps: ExecutorDeps, request: SignedRequest, fate: NonceFate): void {
  if (deps.auth.mode === 'permit' && request.nonce !== undefined) deps.auth.allocator.report(request.nonce, fate);
}

/**
 * After an ambiguous answer: reads whether the first send took effect and lets the retry policy
 * decide. `resign`: it did not, and a new signature with a new nonce is safe.
 */
async function confirmFirstSend(
  intent: Intent,
  action: ResolvedAction,
  request: SignedRequest,
  deps: ExecutorDeps,
  reason: string,
  cause: unknown,
  resigns: number,
  signal?: AbortSignal,
): Promise<SendResult | 'resign'> {
  const evidence = await deps.readLandingEvidence(intent, action, request, signal);
  const decision = classifyLanding(action.action, evidence, { resigns });
  deps.log.info(
    {
      intentId: intent.intentId,
      endpoint: action.action,
      evidence: evidence.kind,
      decision: decision.action,
      reason: decision.reason,
    },
    'checked whether the first send took effect',
  );
  switch (decision.action) {
    case 'accept':
      return {
        type: 'accepted',
        receipt: evidence.kind === 'in_effect' && evidence.orderId !== undefined ? { orderId: evidence.orderId } : {},
        request,
      };
    case 'resign_new_nonce':
      return 'resign';
    case 'report_unknown':
      return {
        type: 'unknown',
        error: new IntentFailedError(`${reason}; ${decision.reason}`, {
          code: 'OUTCOME_UNCONFIRMED',
          cause: evidence.kind === 'cannot_tell' && evidence.cause !== undefined ? evidence.cause : cause,
          hints: decision.hints,
        }),
      };
  }
}

/**
 * A nonce and a signature: synchronous when a nonce is free and the signer answers at once (the
 * common case: no microtask hop between the checks and the socket), a promise otherwise.
 */
function sign(
  intentId: string,
  action: ResolvedAction,
  deps: ExecutorDeps,
  signal?: AbortSignal,
): SignedRequest | Promise<SignedRequest> {
  if (deps.auth.mode === 'jwt') return signRequest(action, { mode: 'jwt' }, deps.selectors);
  const allocator = deps.auth.allocator;
  // What allocate() would resolve with at once; an aborted signal goes through allocate(), which refuses it.
  const free = signal?.aborted === true ? undefined : allocator.tryAllocate();
  if (free !== undefined) return signWithNonce(free, intentId, action, deps);
  return allocator.allocate(signal).then((nonce) => signWithNonce(nonce, intentId, action, deps));
}

function signWithNonce(
  nonce: NoncePair,
  intentId: string,
  action: ResolvedAction,
  deps: ExecutorDeps,
): SignedRequest | Promise<SignedRequest> {
  const auth = deps.auth as Extract<ExecutorDeps['auth'], { mode: 'permit' }>;
  try {
    deps.journal.nonceAllocated(nonce, intentId);
    const signed = signRequest(
      action,
      {
        mode: 'permit',
        context: auth.context(),
        signer: auth.signer,
        account: deps.account,
        nonce,
        deadline: unixSeconds(deps.clock) + deps.permitDeadlineSeconds,
      },
      deps.selectors,
    );
    return signed instanceof Promise
      ? signed.catch((error: unknown) => notSigned(auth.allocator, nonce, error))
      : signed;
  } catch (error) {
    return notSigned(auth.allocator, nonce, error);
  }
}

/** Never signed (or unsignable): the pair was not consumed. */
function notSigned(allocator: NonceAllocator, nonce: NoncePair, error: unknown): never {
  allocator.report(nonce, 'rejected');
  throw error;
}
