import { unixSeconds, type Clock } from '../../core/clock.js';
import { hasNoDefiniteAnswer } from '../../venue/venueTransportError.js';
import type { SendReceipt } from './actionSender.js';
import { confirmFirstSend } from './confirmFirstSend.js';
import { journalBody, NO_JOURNAL } from '../tracking/engineJournal.js';
import { IntentFailedError, type SendDeps } from './sendDeps.js';
import type { Intent } from '../intents/intents.js';
import type { NonceFate } from '../nonces/nonceAllocator.js';
import { classifyFailure, type RetryDecision } from './retryPolicy.js';
import { signAction } from '../signing/signAction.js';
import type { SignedRequest } from '../signing/signedRequest.js';
import type { ResolvedAction } from '../checks/wireAction.js';
import type { SendResult } from './sendResult.js';

export type { SendResult } from './sendResult.js';

/** A failure after which the action may still have executed: the order's state is unknown, not failed. */
export function isUnconfirmed(error: unknown): boolean {
  return (error instanceof IntentFailedError && error.code === 'OUTCOME_UNCONFIRMED') || hasNoDefiniteAnswer(error);
}

/** New signatures per intent after deadlines passed, before it fails (a too-short deadline). */
const MAX_DEADLINE_RESIGNS = 5;

/** What comes after a failed send when it is not the result yet: sign anew, or send the same bytes again. */
const RESIGN = 'resign';
const AGAIN = 'again';
type Next = SendResult | typeof RESIGN | typeof AGAIN;

/**
 * The send stage: sends one resolved action (signed by the sign stage as `first`, or signed here
 * when absent) until the retry policy reaches a verdict: the same bytes again after an answerless
 * failure, a new signature with a new nonce only once the old pair is known not to have executed.
 * A permit whose deadline has passed locally is never sent: it is
 * re-signed when every earlier send of it was definitely refused, otherwise confirmed first.
 * Confirming means reading the venue's state (`readLandingEvidence`); a read that cannot tell
 * ends `unknown`, never `accepted`.
 */
export function sendWithPolicy(
  intent: Intent,
  action: ResolvedAction,
  deps: SendDeps,
  signal?: AbortSignal,
  first?: SignedRequest | Promise<SignedRequest>,
): Promise<SendResult> {
  return new PolicySend(intent, action, deps, signal).run(first);
}

/**
 * One intent's way through the retry policy: the loop of signatures and sends, and the counts that
 * bound its new signatures, nonce resyncs and logins across all of them. The send itself stays in
 * `run`, so an order that is accepted at once takes no extra hop; what follows a failure or a
 * passed deadline, the rare paths, are methods of their own.
 */
class PolicySend {
  private resyncs = 0;
  private deadlineResigns = 0;
  /** New signatures after a venue read showed the first send had not taken effect. */
  private landingResigns = 0;
  /** JWT mode: times a refused token was dropped and the request sent again. */
  private reauthentications = 0;
  private readonly maxResyncs: number;
  private readonly canReauthenticate: boolean;
  /** Without a journal there is no one to read the entries: skip building them (body copies). */
  private readonly journaled: boolean;

  constructor(
    private readonly intent: Intent,
    private readonly action: ResolvedAction,
    private readonly deps: SendDeps,
    private readonly signal: AbortSignal | undefined,
  ) {
    this.maxResyncs = deps.maxResyncs ?? 3;
    this.canReauthenticate = deps.auth.mode === 'jwt' && deps.sender.reauthenticate !== undefined;
    this.journaled = deps.journal !== NO_JOURNAL;
  }

  async run(first: SignedRequest | Promise<SignedRequest> | undefined): Promise<SendResult> {
    const { deps, signal } = this;
    const sendOptions = signal === undefined ? {} : { signal };
    for (let signed: SignedRequest | Promise<SignedRequest> | undefined = first; ; signed = undefined) {
      const signing = signed ?? signAction(this.intent.intentId, this.action, deps, signal);
      const request = signing instanceof Promise ? await signing : signing;
      // Sends of these exact bytes that got no definite answer: only after one of those can a nonce
      // error mean "the first send executed".
      let unansweredBefore = 0;
      for (let attempt = 1; ; attempt++) {
        signal?.throwIfAborted();
        if (deadlinePassed(request, deps.clock)) {
          const next = await this.deadlinePassedBeforeSend(request, attempt, unansweredBefore);
          if (next === RESIGN) break;
          return next;
        }
        if (this.journaled) this.journalRequest(request, attempt);
        try {
          const receipt = await deps.sender.send(request, sendOptions);
          if (this.journaled) this.journalAnswer(attempt, receipt);
          // A dry run stands in for a venue that consumed the pair, so the allocator keeps rolling
          // anchors as it would live instead of waiting forever for a landing that never comes.
          reportFate(deps, request, 'landed');
          return { type: 'accepted', receipt, request };
        } catch (error) {
          if (this.journaled) this.journalFailure(attempt, error);
          const next = await this.afterFailure(error, request, attempt, unansweredBefore);
          if (hasNoDefiniteAnswer(error)) unansweredBefore++;
          if (next === RESIGN) break;
          if (next !== AGAIN) return next;
        }
      }
    }
  }

  /**
   * The permit's deadline passed before this send. After a send with no definite answer the pair
   * may be consumed: confirm. Otherwise every earlier send was definitely refused, so the pair was
   * not consumed: sign anew, a bounded number of times.
   */
  private async deadlinePassedBeforeSend(
    request: SignedRequest,
    attempt: number,
    unansweredBefore: number,
  ): Promise<SendResult | typeof RESIGN> {
    const { deps } = this;
    const reason = `the permit deadline ${request.deadline} passed before send ${attempt}`;
    if (unansweredBefore > 0) {
      reportFate(deps, request, 'unknown');
      return this.confirm(request, `${reason}, after a send with no definite answer`, undefined);
    }
    reportFate(deps, request, 'refused');
    if (++this.deadlineResigns > MAX_DEADLINE_RESIGNS) {
      return { type: 'failed', error: deadlineTooShort(`${reason}, ${this.deadlineResigns} times`, deps) };
    }
    deps.log.info(
      { intentId: this.intent.intentId, deadline: request.deadline },
      'permit deadline passed before sending: signing again with a new nonce',
    );
    return RESIGN;
  }

  /** Carries out the retry policy's decision on a failed send. */
  private async afterFailure(
    error: unknown,
    request: SignedRequest,
    attempt: number,
    unansweredBefore: number,
  ): Promise<Next> {
    const decision = this.classify(error, request, attempt, unansweredBefore);
    switch (decision.action) {
      case 'retry_same_after_delay':
      case 'resend_identical':
        await this.deps.clock.sleep(decision.delayMs, this.signal);
        return AGAIN;
      case 'confirm_landed':
        return this.confirm(request, decision.reason, error);
      case 'resign_new_nonce':
        return RESIGN;
      case 'resync_nonces_then_resign':
        return this.resync(error, decision.reason);
      case 'stop_signer_not_authorized':
        await this.deps.onSignerNotAuthorized(error);
        return { type: 'failed', error };
      case 'reauthenticate_then_resend':
        this.reauthentications++;
        this.deps.sender.reauthenticate?.();
        this.deps.log.warn(
          { intentId: this.intent.intentId, reason: decision.reason },
          'JWT refused: logging in again',
        );
        return AGAIN;
      case 'fail':
        return { type: 'failed', error };
    }
  }

  /** The policy's decision on a failed send, logged, with the pair's fate reported unless it is resent. */
  private classify(error: unknown, request: SignedRequest, attempt: number, unansweredBefore: number): RetryDecision {
    const { deps } = this;
    const context = { attempt, deadlinePassed: deadlinePassed(request, deps.clock), unansweredBefore };
    const decision = classifyFailure(
      error,
      this.canReauthenticate ? { ...context, reauthentications: this.reauthentications } : context,
      deps.config.retry,
    );
    deps.log.debug(
      { intentId: this.intent.intentId, attempt, action: decision.action, reason: decision.reason },
      'send failed',
    );
    if (decision.nonceFate !== 'in_flight') reportFate(deps, request, decision.nonceFate);
    return decision;
  }

  /** Whether the first send took effect decides: the result, or a new signature (counted). */
  private async confirm(request: SignedRequest, reason: string, cause: unknown): Promise<SendResult | typeof RESIGN> {
    const why = { reason, cause, resigns: this.landingResigns };
    const confirmed = await confirmFirstSend(this.intent, this.action, request, this.deps, why, this.signal);
    if (confirmed !== RESIGN) return confirmed;
    this.landingResigns++;
    return RESIGN;
  }

  /** Reads the venue's nonce state into the allocator before a new signature (permit mode; bounded). */
  private async resync(error: unknown, reason: string): Promise<SendResult | typeof RESIGN> {
    const { deps } = this;
    if (deps.auth.mode !== 'permit' || ++this.resyncs > this.maxResyncs) return { type: 'failed', error };
    deps.auth.allocator.resync(await deps.readNonceState());
    deps.log.warn({ intentId: this.intent.intentId, reason }, 'nonce state resynced');
    return RESIGN;
  }

  private journalRequest(request: SignedRequest, attempt: number): void {
    const { deps } = this;
    deps.journal.requestSent({
      intentId: this.intent.intentId,
      endpoint: request.endpoint,
      body: journalBody(request.body),
      ...(request.nonce === undefined ? {} : { nonce: request.nonce }),
      attempt,
      atMs: deps.clock.now(),
    });
  }

  private journalAnswer(attempt: number, receipt: SendReceipt): void {
    const { deps } = this;
    deps.journal.responseReceived({
      intentId: this.intent.intentId,
      attempt,
      ok: true,
      ...(receipt.orderId === undefined ? {} : { orderId: receipt.orderId }),
      atMs: deps.clock.now(),
    });
  }

  private journalFailure(attempt: number, error: unknown): void {
    const { deps } = this;
    deps.journal.responseReceived({
      intentId: this.intent.intentId,
      attempt,
      ok: false,
      error: error instanceof Error ? error.message : String(error),
      atMs: deps.clock.now(),
    });
  }
}

function deadlinePassed(request: SignedRequest, clock: Clock): boolean {
  return request.deadline !== undefined && unixSeconds(clock) >= request.deadline;
}

function reportFate(deps: SendDeps, request: SignedRequest, fate: NonceFate): void {
  if (deps.auth.mode === 'permit' && request.nonce !== undefined) deps.auth.allocator.report(request.nonce, fate);
}

function deadlineTooShort(reason: string, deps: SendDeps): IntentFailedError {
  return new IntentFailedError(reason, {
    code: 'PERMIT_DEADLINE_TOO_SHORT',
    details: { permitDeadlineSeconds: deps.permitDeadlineSeconds },
    hints: [
      'raise permitDeadlineSeconds (auth.permit_deadline_seconds) above the retry delays',
      'check the local clock',
    ],
  });
}
