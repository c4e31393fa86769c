import type { IntentOutcome } from '../../../engine/intents/intentOutcome.js';
import { refusalCode } from '../../../engine/intents/refusal.js';
import type { Logger } from './createLogger.js';

/**
 * One line per intent outcome: accepted at info, refused, failed and unknown at warn (with the reason),
 * except a cancel (or a replacement) whose order had already finished: a market maker loses that
 * race to a fill routinely and nothing is wrong, so it is info; and a quote target taken, at debug.
 */
export function logIntentOutcome(logger: Logger, o: IntentOutcome): void {
  const where = { strategy: o.strategy, intentId: o.intentId, kind: o.kind, marketId: o.marketId };
  switch (o.type) {
    case 'accepted':
      // A quote target is taken at every mark; its actions have lines of their own.
      if (o.kind === 'quote') {
        logger.debug(where, 'quote target taken');
        return;
      }
      // The venue's order id and the action's tx hash are public: the trail support asks for.
      logger.info(
        {
          ...where,
          ...(o.orderId === undefined ? {} : { orderId: o.orderId }),
          ...(o.txHash === undefined ? {} : { txHash: o.txHash }),
        },
        o.kind === 'placeLimit' || o.kind === 'placeMarket'
          ? 'order placed'
          : o.kind === 'cancel' || o.kind === 'cancelAll'
            ? 'order cancelled'
            : 'action done',
      );
      return;
    case 'refused':
      if (o.refusal.rule === 'cancel_target_finished') {
        logger.info({ ...where, value: o.refusal.value, reason: o.refusal.reason }, 'cancel not needed');
        return;
      }
      // The order being moved filled first: the same race a market maker's cancels lose routinely.
      if (o.refusal.rule === 'replace_target_finished') {
        logger.info({ ...where, value: o.refusal.value, reason: o.refusal.reason }, 'replacement not needed');
        return;
      }
      logger.warn(
        {
          ...where,
          rule: o.refusal.rule,
          code: refusalCode(o.refusal.rule),
          value: o.refusal.value,
          reason: o.refusal.reason,
        },
        'intent refused',
      );
      return;
    case 'failed':
      logger.warn({ ...where, error: o.error }, 'intent failed');
      return;
    case 'dry_run':
      logger.info({ ...where, request: o.request }, 'dry run');
      return;
    case 'unknown':
      // The action may have executed and the venue's state could not show it: check before acting again.
      logger.warn(
        { ...where, reason: o.reason, ...(o.hints === undefined ? {} : { hints: o.hints }) },
        'outcome unknown',
      );
  }
}
