import type { SendDeps } from './sendDeps.js';
import { IntentFailedError } from './sendDeps.js';
import type { Intent } from '../intents/intents.js';
import { classifyLanding } from './landingPolicy.js';
import type { SendResult } from './sendResult.js';
import type { SignedRequest } from '../signing/signedRequest.js';
import type { ResolvedAction } from '../checks/wireAction.js';

/**
 * After an ambiguous answer: reads whether the first send took effect and lets the retry policy
 * decide. `resign`: it did not, and a new signature with a new nonce is safe. A read that cannot
 * tell ends `unknown`, never `accepted`.
 */
export async function confirmFirstSend(
  intent: Intent,
  action: ResolvedAction,
  request: SignedRequest,
  deps: SendDeps,
  why: { readonly reason: string; readonly cause: unknown; readonly resigns: number },
  signal?: AbortSignal,
): Promise<SendResult | 'resign'> {
  const evidence = await deps.readLandingEvidence(intent, action, signal);
  const decision = classifyLanding(action.action, evidence, { resigns: why.resigns });
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
    case 'target_finished':
      return {
        type: 'failed',
        error: new IntentFailedError(`${why.reason}; ${decision.reason}`, { code: 'CANCEL_TARGET_FINISHED' }),
      };
    case 'report_unknown':
      return {
        type: 'unknown',
        error: new IntentFailedError(`${why.reason}; ${decision.reason}`, {
          code: 'OUTCOME_UNCONFIRMED',
          cause: evidence.kind === 'cannot_tell' && evidence.cause !== undefined ? evidence.cause : why.cause,
          hints: decision.hints,
        }),
      };
  }
}
