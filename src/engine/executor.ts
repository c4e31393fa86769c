import type { Address } from '../core/address.js';
import type { Clock } from '../core/clock.js';
import { unixSeconds } from '../core/clock.js';
import { PerpbotError } from '../core/perpbotError.js';
import type { SignerLike } from '../protocol/digestSigner.js';
import type { SelectorTable } from '../protocol/selectors.js';
import type { SigningContext } from '../protocol/signingContext.js';
import { VenueError } from '../venue/venueError.js';
import { hasNoDefiniteAnswer } from '../venue/venueTransportError.js';
import type { AccountState } from './accountState.js';
import type { ActionSender, SendReceipt } from './actionSender.js';
import type { EngineConfig } from './engineConfig.js';
import { journalBody, type EngineJournal } from './engineJournal.js';
import type { IntentOutcome } from './intentOutcome.js';
import type { Intent } from './intents.js';
import type { MarketView } from './marketView.js';
import type { NonceAllocator } from './nonceAllocator.js';
import type { NoncePair, NonceState } from './noncePair.js';
import type { OrderTracker } from './orderTracker.js';
import { preTradeChecks } from './preTradeChecks.js';
import { rejection, type Rejection } from './rejection.js';
import { classifyFailure } from './retryPolicy.js';
import { buildSignedRequest, type Authorization, type ResolvedAction, type SignedRequest } from './signedRequest.js';
import type { WireAction } from './wireAction.js';

/**
 * Turns one intent into at most one executed venue action: checks, guards, a nonce, a signature,
 * the send, and the retry policy's decisions, ending in exactly one terminal outcome. The same
 * signed bytes are resent after an answerless failure (the nonce makes that idempotent); a new
 * signature is made only when the old nonce is known not to have executed.
 */
export interface ExecutorLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export type AuthSource =
  | { readonly mode: 'permit'; readonly context: () => SigningContext; readonly signer: SignerLike; readonly allocator: NonceAllocator }
  | { readonly mode: 'jwt' };

export interface ExecutorDeps {
  readonly account: Address;
  readonly config: EngineConfig;
  readonly selectors: SelectorTable;
  readonly auth: AuthSource;
  readonly sender: ActionSender;
  readonly tracker: OrderTracker;
  readonly clock: Clock;
  readonly log: ExecutorLogger;
  readonly journal: EngineJournal;
  market(marketId: number): MarketView | undefined;
  /**
   * Guards after the pre-trade checks, on the intent as checked (snapped to the grid): a refusal,
   * or undefined to proceed. May wait (rate limits, in-flight orders) or act (close first).
   */
  guard(intent: Intent, state: AccountState): Promise<Rejection | undefined>;
  /** Reads the venue's nonce state (for a resync). */
  readNonceState(): Promise<NonceState>;
  /** Finds the resting id of an order the tracker does not know (open-orders read). */
  lookupRestingId(marketId: number, orderId: string): Promise<bigint | undefined>;
  /** Confirms whether a placement landed after an ambiguous answer; returns its order id. */
  confirmPlacement(intent: Intent, request: SignedRequest): Promise<string | undefined>;
  /** The venue refused our signer: stop trading and refresh the system config. */
  onSignerNotAuthorized(error: unknown): void;
  /** Permit deadline in seconds from now. */
  readonly permitDeadlineSeconds: number;
  /** Resyncs allowed per intent before giving up. */
  readonly maxResyncs?: number;
}

export class IntentFailedError extends PerpbotError {}

export async function executeIntent(intent: Intent, deps: ExecutorDeps, signal?: AbortSignal): Promise<IntentOutcome> {
  const base = { intentId: intent.intentId, strategy: intent.strategy, kind: intent.kind, marketId: intent.marketId };
  const at = () => deps.clock.now();
  const refused = (r: Rejection): IntentOutcome => {
    if (intent.kind === 'placeLimit' || intent.kind === 'placeMarket') deps.tracker.settle(intent.intentId, 'rejected');
    return { ...base, type: 'refused', rejection: r, atMs: at() };
  };

  const state = deps.tracker.accountState();
  const verdict = preTradeChecks(intent, deps.market(intent.marketId), state, deps.config.preTrade);
  if (!verdict.ok) return refused(verdict.rejection);
  const guardRefusal = await deps.guard(verdict.intent, state);
  if (guardRefusal !== undefined) return refused(guardRefusal);

  const resolved = await resolveAction(verdict.action, deps);
  if ('rule' in resolved) return refused(resolved);

  if (resolved.action === 'placeOrder') {
    deps.tracker.pending({
      intentId: intent.intentId,
      strategy: intent.strategy,
      marketId: intent.marketId,
      side: resolved.order.side === 0 ? 'buy' : 'sell',
      size: resolved.size,
      price: resolved.price,
      ...(resolved.order.client_order_id === undefined ? {} : { clientOrderId: resolved.order.client_order_id }),
    });
  }
  const done = deps.tracker.beginAction(intent.marketId);
  try {
    const result = await sendWithPolicy(intent, resolved, deps, signal);
    if (result.type === 'accepted') onAccepted(resolved, result.receipt, intent, deps);
    else if (resolved.action === 'placeOrder') deps.tracker.settle(intent.intentId, result.type === 'failed' ? 'failed' : 'unknown');
    if (result.type === 'accepted') {
      if (result.receipt.dryRun === true) return { ...base, type: 'dry_run', request: { path: resolved.action, body: result.request.body }, atMs: at() };
      return { ...base, type: 'accepted', ...(result.receipt.orderId === undefined ? {} : { orderId: result.receipt.orderId }), ...(result.receipt.txHash === undefined ? {} : { txHash: result.receipt.txHash }), atMs: at() };
    }
    return {
      ...base,
      type: 'failed',
      error: errorSummary(result.error),
      atMs: at(),
    };
  } finally {
    done();
  }
}

function onAccepted(action: ResolvedAction, receipt: SendReceipt, intent: Intent, deps: ExecutorDeps): void {
  if (receipt.dryRun === true) return;
  if (action.action === 'placeOrder' && receipt.orderId !== undefined) deps.tracker.placed(intent.intentId, receipt.orderId);
  if (action.action === 'cancelOrder') deps.tracker.cancelled(action.order_id);
  if (action.action === 'cancelAllOrders') for (const o of deps.tracker.openOrders({ marketId: action.market_id })) if (o.orderId !== undefined) deps.tracker.cancelled(o.orderId);
  if (action.action === 'updateMarginMode') deps.tracker.setMarginMode(action.market_id, action.margin_mode === 1 ? 'isolated' : 'cross');
}

async function resolveAction(action: WireAction, deps: ExecutorDeps): Promise<ResolvedAction | Rejection> {
  if (action.action !== 'cancelOrder') return action;
  let orderId: string | undefined;
  if ('intentId' in action.target) {
    const order = deps.tracker.order(action.target.intentId);
    if (order === undefined) return rejection('cancel_target', action.target.intentId, 'no order was placed by that intent');
    orderId = order.orderId;
    if (orderId === undefined) {
      return rejection('cancel_target', action.target.intentId, `the order of that intent is ${order.state}, with no venue order id to cancel`, 'cancel once its placement is accepted');
    }
    if (order.state === 'filled' || order.state === 'cancelled') return rejection('cancel_target', action.target.intentId, `the order is already ${order.state}`);
  } else {
    orderId = action.target.orderId;
  }
  const resting = deps.tracker.restingIdOf(orderId) ?? (await deps.lookupRestingId(action.market_id, orderId));
  if (resting === undefined) return rejection('cancel_target', orderId, 'the order is not open on the venue (no resting_order_id found)');
  return { action: 'cancelOrder', market_id: action.market_id, order_id: orderId, resting_order_id: resting };
}

type SendResult = { type: 'accepted'; receipt: SendReceipt; request: SignedRequest } | { type: 'failed'; error: unknown };

async function sign(intentId: string, action: ResolvedAction, deps: ExecutorDeps, signal?: AbortSignal): Promise<SignedRequest> {
  let auth: Authorization;
  if (deps.auth.mode === 'jwt') {
    auth = { mode: 'jwt' };
  } else {
    const nonce: NoncePair = await deps.auth.allocator.allocate(signal);
    try {
      deps.journal.nonceAllocated(nonce, intentId);
      auth = { mode: 'permit', context: deps.auth.context(), signer: deps.auth.signer, account: deps.account, nonce, deadline: unixSeconds(deps.clock) + deps.permitDeadlineSeconds };
      return await buildSignedRequest(action, auth, deps.selectors);
    } catch (error) {
      // Never signed (or unsignable): the pair was not consumed.
      deps.auth.allocator.report(nonce, 'rejected');
      throw error;
    }
  }
  return buildSignedRequest(action, auth, deps.selectors);
}

async function sendWithPolicy(intent: Intent, action: ResolvedAction, deps: ExecutorDeps, signal?: AbortSignal): Promise<SendResult> {
  const maxResyncs = deps.maxResyncs ?? 3;
  let resyncs = 0;
  for (;;) {
    const request = await sign(intent.intentId, action, deps, signal);
    const report = (fate: 'landed' | 'rejected' | 'unknown') => {
      if (deps.auth.mode === 'permit' && request.nonce !== undefined) deps.auth.allocator.report(request.nonce, fate);
    };
    // Sends of these exact bytes that got no definite answer: only after one of those can a nonce
    // error mean "the first send executed".
    let unansweredBefore = 0;
    for (let attempt = 1; ; attempt++) {
      signal?.throwIfAborted();
      deps.journal.requestSent({
        intentId: intent.intentId,
        endpoint: request.endpoint,
        body: journalBody(request.body),
        ...(request.nonce === undefined ? {} : { nonce: request.nonce }),
        attempt,
        atMs: deps.clock.now(),
      });
      try {
        const receipt = await deps.sender.send(request, signal === undefined ? {} : { signal });
        deps.journal.responseReceived({ intentId: intent.intentId, attempt, ok: true, ...(receipt.orderId === undefined ? {} : { orderId: receipt.orderId }), atMs: deps.clock.now() });
        report(receipt.dryRun === true ? 'rejected' : 'landed');
        return { type: 'accepted', receipt, request };
      } catch (error) {
        deps.journal.responseReceived({ intentId: intent.intentId, attempt, ok: false, error: error instanceof Error ? error.message : String(error), atMs: deps.clock.now() });
        const deadlinePassed = request.deadline !== undefined && unixSeconds(deps.clock) >= request.deadline;
        const decision = classifyFailure(error, { attempt, deadlinePassed, unansweredBefore }, deps.config.retry);
        if (hasNoDefiniteAnswer(error)) unansweredBefore++;
        deps.log.debug({ intentId: intent.intentId, attempt, action: decision.action, reason: decision.reason }, 'send failed');
        if (decision.nonceFate !== 'in_flight') report(decision.nonceFate);
        switch (decision.action) {
          case 'retry_same_after_delay':
          case 'resend_identical':
            await deps.clock.sleep(decision.delayMs, signal);
            continue;
          case 'confirm_landed': {
            const orderId = action.action === 'placeOrder' ? await deps.confirmPlacement(intent, request) : undefined;
            if (action.action !== 'placeOrder' || orderId !== undefined) {
              deps.log.info({ intentId: intent.intentId, orderId }, 'confirmed that the first send executed');
              return { type: 'accepted', receipt: orderId === undefined ? {} : { orderId }, request };
            }
            return { type: 'failed', error: new IntentFailedError(`${decision.reason}; no such order found on the venue`, { code: 'OUTCOME_UNCONFIRMED', cause: error, hints: decision.hints }) };
          }
          case 'resign_new_nonce':
            break;
          case 'resync_nonces_then_resign':
            if (deps.auth.mode !== 'permit' || ++resyncs > maxResyncs) return { type: 'failed', error };
            deps.auth.allocator.resync(await deps.readNonceState());
            deps.log.warn({ intentId: intent.intentId, reason: decision.reason }, 'nonce state resynced');
            break;
          case 'stop_signer_not_authorized':
            deps.onSignerNotAuthorized(error);
            return { type: 'failed', error };
          case 'fail':
            return { type: 'failed', error };
        }
        break;
      }
    }
  }
}

function errorSummary(error: unknown): { code: string; kind?: string; message: string; hints: readonly string[] } {
  if (error instanceof VenueError) return { code: error.code, kind: error.kind, message: error.message, hints: error.hints };
  if (error instanceof PerpbotError) return { code: error.code, message: error.message, hints: error.hints };
  return { code: 'UNEXPECTED', message: error instanceof Error ? error.message : String(error), hints: [] };
}
