/**
 * Every `code` a PerpbotError (or a subclass) can carry, in one union: a program switches on
 * these, so they are part of the API. A new code is added here first; a free string does not
 * compile. Codes derived from a kind or step name (`VENUE_NONCE_USED` from `NonceUsed`) are
 * built with `screamingSnake`, which gives the compiler the exact literal.
 */
export type ErrorCode =
  | CoreErrorCode
  | VenueErrorCode
  | EngineErrorCode
  | StrategyErrorCode
  | RuntimeErrorCode
  | SimErrorCode
  | BenchErrorCode;

type CoreErrorCode = 'INVALID_VALUE' | 'ABORTED';

/** `VenueError` (`VENUE_` + its kind), `VenueTransportError` and the REST and WebSocket readers. */
type VenueErrorCode =
  | 'VENUE_SIGNER_NOT_AUTHORIZED'
  | 'VENUE_INVALID_NONCE_ANCHOR'
  | 'VENUE_INVALID_NONCE_INDEX'
  | 'VENUE_NONCE_USED'
  | 'VENUE_ALLOWANCE_EXPIRED'
  | 'VENUE_OPEN_POSITION_EXISTS'
  | 'VENUE_POST_ONLY_WOULD_CROSS'
  | 'VENUE_ACCOUNT_NOT_REGISTERED'
  | 'VENUE_MARKET_ORDER_TIME_IN_FORCE'
  | 'VENUE_PERMIT_EXPIRED'
  | 'VENUE_RATE_LIMITED'
  | 'VENUE_UNAUTHENTICATED'
  | 'VENUE_INVALID_ARGUMENT'
  | 'VENUE_INTERNAL'
  | 'VENUE_UNKNOWN'
  | 'VENUE_TIMEOUT'
  | 'VENUE_ABORTED'
  | 'VENUE_CONNECTION_FAILED'
  | 'VENUE_REQUEST_INVALID'
  | 'VENUE_RESPONSE_INVALID'
  | 'VENUE_HISTORY_TOO_LONG'
  | 'VENUE_OPEN_ORDERS_TOO_MANY'
  | 'VENUE_OPEN_ORDERS_UNSTABLE'
  | 'VENUE_TPSL_ORDERS_TOO_MANY'
  | 'VENUE_TPSL_ORDERS_UNSTABLE'
  | 'WS_AUTH_NO_REPLY'
  | 'WS_AUTH_REFUSED'
  | 'WS_CHANNEL_REFUSED'
  | 'WS_CLOSED'
  | 'WS_CONNECTION_LOST'
  | 'WS_FILTER_IGNORED'
  | 'WS_FILTER_MISMATCH'
  | 'WS_NO_AUTHENTICATOR'
  | 'WS_SIGNER_NOT_ACTIVE'
  | 'WS_UNKNOWN_MARKET';

type EngineErrorCode =
  | 'ENGINE_NOT_STARTED'
  | 'ENGINE_STOPPED'
  | 'FEED_LOST'
  | 'INTENT_REFUSED'
  | 'NONCE_BLOCKED'
  | 'NONCE_EXHAUSTED'
  | 'NONCE_NOT_ALLOCATED'
  | 'OUTCOME_UNCONFIRMED'
  | 'CANCEL_TARGET_FINISHED'
  | 'PERMIT_DEADLINE_TOO_SHORT'
  | 'TRADING_STOPPED'
  | 'WAIT_ABORTED';

type StrategyErrorCode =
  | 'STRATEGY_FRESHNESS'
  | 'STRATEGY_INTENT'
  | 'STRATEGY_INVALID'
  | 'STRATEGY_NOT_FOUND'
  | 'STRATEGY_PARAMS'
  | 'STRATEGY_STATE_INVALID'
  | 'STRATEGY_STATE_TOO_LARGE';

/** `SetupError` is `SETUP_` + its step. */
type RuntimeErrorCode =
  | 'CANCEL_ALL_FAILED'
  | 'CHAOS_BOT_START'
  | 'CLI_USAGE'
  | 'CONFIG_ALERTS'
  | 'CONFIG_INVALID'
  | 'CONFIG_MARKET'
  | 'CONTROL_LISTEN'
  | 'CONTROL_TOKEN'
  | 'KILL_SWITCH_FAILED'
  | 'JOURNAL_CORRUPT'
  | 'JOURNAL_LINKED'
  | 'JOURNAL_LOCKED'
  | 'JOURNAL_MISSING'
  | 'JOURNAL_OPEN'
  | 'JOURNAL_READONLY'
  | 'JOURNAL_FULL'
  | 'JOURNAL_INCOMPLETE'
  | 'JOURNAL_VERSION'
  | 'KEY_FILE_EXISTS'
  | 'KEY_FILE_INVALID'
  | 'KEY_FILE_PERMISSIONS'
  | 'KEY_FILE_UNREADABLE'
  | 'KEY_FILE_UNWRITABLE'
  | 'KEY_INVALID'
  | 'KEY_MISSING'
  | 'KEY_SIGNER_IS_ACCOUNT'
  | 'RECONCILE_FAILED'
  | 'RECONCILE_INCOMPLETE'
  | 'RECORDING_FORMAT'
  | 'RECORDING_FRAMES'
  | 'RECORDING_STOPPED'
  | 'RECORDING_WRITE'
  | 'SETUP_APPROVE_SINGLE'
  | 'SETUP_CONFIRM_STATUS'
  | 'SETUP_NONCE'
  | 'SETUP_REGISTER_SIGNER'
  | 'SETUP_REGISTRATION'
  | 'SETUP_REVOKE_SIGNER'
  | 'SETUP_START'
  | 'SETUP_STATUS_NOT_YET'
  | 'STARTUP_DEADLINE'
  | 'SWEEP_FAILED'
  | 'SWEEP_MERGE'
  | 'SWEEP_OBJECTIVE'
  | 'SWEEP_STUDY'
  | 'SWEEP_STUDY_MISMATCH';

type SimErrorCode = 'EXCHANGE_REFUSED' | 'SIM_REFUSED';

/** The benchmarks' harness (bench/). */
type BenchErrorCode =
  | 'BENCH_CAPTURE'
  | 'BENCH_FIGURE_FAILED'
  | 'BENCH_FIGURE_RECORD'
  | 'BENCH_FRAME'
  | 'BENCH_LOAD_CLIENT'
  | 'BENCH_LOAD_FAILED'
  | 'BENCH_ORDER_ID'
  | 'BENCH_PROCESS_START'
  | 'BENCH_SIM_START'
  | 'BENCH_TICK_REFUSED'
  | 'BENCH_TICK_STAMP'
  | 'BENCH_TICK_TIMEOUT'
  | 'NAIVE_PLACE_FAILED'
  | 'NAIVE_READ_FAILED';

/** `ScreamingSnake<'approveSingle'>` is `'APPROVE_SINGLE'`: a capital after the first letter starts a word. */
export type ScreamingSnake<S extends string> = S extends `${infer First}${infer Rest}`
  ? `${Uppercase<First>}${SnakeTail<Rest>}`
  : S;

type SnakeTail<S extends string> = S extends `${infer C}${infer Rest}`
  ? `${C extends Lowercase<C> ? Uppercase<C> : `_${C}`}${SnakeTail<Rest>}`
  : S;

/** The code part for a kind or step name, typed as the exact literal the compiler can check. */
export function screamingSnake<S extends string>(name: S): ScreamingSnake<S> {
  return (name.slice(0, 1) + name.slice(1).replace(/[A-Z]/g, '_$&')).toUpperCase() as ScreamingSnake<S>;
}
