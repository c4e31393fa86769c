import { admissionStage } from '../admission/admissionStage.js';
import { checkStage } from '../checks/checkStage.js';
import type { IntentOutcome } from '../intents/intentOutcome.js';
import type { Intent } from '../intents/intents.js';
import { nonceStage, type SendHold } from '../nonces/nonceStage.js';
import { sendWithPolicy } from '../sending/sendWithPolicy.js';
import { signStage } from '../signing/signAction.js';
import type { PipelineDeps } from './pipelineDeps.js';
import { trackStage, type Reached } from './trackStage.js';

/**
 * One accepted intent through the stages that follow, each once and in order: check (pre-trade
 * checks, a cancel's target) → admission (the strategy's budget, the account's limits and rate) →
 * nonce → sign → send (with its retry policy) → track (what the result means for the order model,
 * and the one terminal outcome). A stage that refuses ends the way there, and the track stage takes
 * its refusal. The admission's in-flight ticket is released in one place, the `finally` below.
 */
export async function runStages(
  intent: Intent,
  deps: PipelineDeps,
  signal?: AbortSignal,
  hold?: SendHold,
): Promise<IntentOutcome> {
  return trackStage(intent, await throughStages(intent, deps, signal, hold), deps);
}

/** Synchronous up to the socket when nothing has to be waited for: no microtask hop on an order's way out. */
async function throughStages(
  intent: Intent,
  deps: PipelineDeps,
  signal: AbortSignal | undefined,
  hold: SendHold | undefined,
): Promise<Reached> {
  const checking = checkStage(intent, deps);
  const checked = checking instanceof Promise ? await checking : checking;
  if ('rule' in checked) return { refusal: checked };
  const admitting = admissionStage(checked, deps);
  const admission = admitting instanceof Promise ? await admitting : admitting;
  try {
    if (admission.refusal !== undefined)
      return admission.orderEnded ? { refusal: admission.refusal, orderEnded: true } : { refusal: admission.refusal };
    const action = checked.action;
    const allocating = nonceStage(deps.auth, hold, signal);
    const nonce = allocating instanceof Promise ? await allocating : allocating;
    if (nonce !== undefined && 'rule' in nonce) return { action, result: { type: 'withheld', refusal: nonce } };
    const signed = signStage(nonce, intent.intentId, action, deps);
    return { action, result: await sendWithPolicy(intent, action, deps, signal, signed) };
  } finally {
    admission.ticket?.settled();
  }
}
