import { PerpbotError } from '../../core/perpbotError.js';

/**
 * Why the exchange core refused an operation, in the venue's own error format: a gRPC-style status
 * name, then a reason. Reverted contract calls read `<Action> reverted: <ErrorName>(<args>)`. The
 * server turns `text` into the error envelope unchanged, so clients see exactly what the real
 * venue would send.
 */
export type GrpcStatusName = 'InvalidArgument' | 'FailedPrecondition' | 'NotFound' | 'PermissionDenied' | 'Internal';

/** The venue's error text: `InvalidArgument: market orders require FOK or IOC time_in_force, got 0`. */
export function formatErrorText(status: GrpcStatusName, reason: string): string {
  return `${status}: ${reason}`;
}

/** A contract revert as the venue words it: `PlaceOrder reverted: OpenPositionExists(1500)`. */
export function revertReason(
  action: ExchangeAction,
  errorName: string,
  args: readonly (bigint | number | string)[] = [],
): string {
  return `${action} reverted: ${errorName}(${args.map(String).join(',')})`;
}

export type ExchangeAction =
  'PlaceOrder' | 'CancelOrder' | 'CancelAllOrders' | 'UpdateLeverage' | 'UpdateMarginMode' | 'UpdateIsolatedMargin';

/** The simulated venue refusing an action, worded and coded as the real venue words it. */
export class ExchangeRefusal extends PerpbotError {
  readonly status: GrpcStatusName;
  readonly reason: string;
  /** The full venue text (`status: reason`); what the server puts in `error.message`. */
  readonly text: string;

  constructor(status: GrpcStatusName, reason: string, hints: readonly string[] = []) {
    const text = formatErrorText(status, reason);
    super(text, { code: 'EXCHANGE_REFUSED', details: { status, reason }, hints });
    this.status = status;
    this.reason = reason;
    this.text = text;
  }
}

export function invalidArgument(reason: string, ...hints: string[]): ExchangeRefusal {
  return new ExchangeRefusal('InvalidArgument', reason, hints);
}

export function reverted(
  action: ExchangeAction,
  errorName: string,
  args: readonly (bigint | number | string)[],
  ...hints: string[]
): ExchangeRefusal {
  return new ExchangeRefusal('FailedPrecondition', revertReason(action, errorName, args), hints);
}

export function isExchangeRefusal(value: unknown): value is ExchangeRefusal {
  return value instanceof ExchangeRefusal;
}
