import type { AccountState } from '../tracking/accountState.js';
import { checkAdjustIsolatedMargin, checkSetLeverage, checkSetMarginMode } from './checkAccountAction.js';
import { checkClosePosition, checkPlaceLimit, checkPlaceMarket, type CheckedPlacement } from './checkPlaceOrder.js';
import type { PreTradeConfig } from '../config/engineConfig.js';
import type { Intent, PlaceLimitIntent, PlaceMarketIntent } from '../intents/intents.js';
import { marketRules, type MarketRules } from './marketRules.js';
import { rememberDecimal } from '../../core/decimal.js';
import { isMarketTradable, type MarketView } from './marketView.js';
import type { Refusal } from '../intents/refusal.js';
import { refuse, ThrownRefusal } from '../intents/refusal.js';
import type { WireAction } from './wireAction.js';

/**
 * The one pure gate between an intent and a signature: either the exact wire values (every
 * integer range-checked, no silent rounding) or a refusal naming the rule and the value.
 * `intent` in a passing verdict is the input with size and price snapped to the grid, so the
 * guards that run next judge what will really be sent (and find its size and price already
 * parsed, `rememberDecimal`).
 */
export type PreTradeVerdict =
  | { readonly ok: true; readonly action: WireAction; readonly intent: Intent }
  | { readonly ok: false; readonly refusal: Refusal };

type Passed = Extract<PreTradeVerdict, { ok: true }>;

const UINT16_MAX = 65_535;

export function preTradeChecks(
  intent: Intent,
  market: MarketView | undefined,
  account: AccountState,
  config: PreTradeConfig,
): PreTradeVerdict {
  try {
    return check(intent, market, account, config);
  } catch (error) {
    if (error instanceof ThrownRefusal) return { ok: false, refusal: error.refusal };
    throw error;
  }
}

/** Throws a `ThrownRefusal` for the first rule the intent breaks. */
function check(intent: Intent, market: MarketView | undefined, account: AccountState, config: PreTradeConfig): Passed {
  checkIdentity(intent);
  const marketId = intent.marketId;
  // A cancel must stay possible in a market that was delisted or halted.
  if (intent.kind === 'cancel') return { ok: true, action: checkCancel(intent.target, marketId), intent };
  if (intent.kind === 'cancelAll') {
    // Whether 0 means "all markets" is disputed (venue-wire.md §2, cancel-all): a real market is asked for.
    if (marketId < 1) refuse('market_id', marketId, 'cancel-all needs a market id from 1; 0 is not "all markets"');
    return { ok: true, action: { action: 'cancelAllOrders', market_id: marketId }, intent };
  }
  const known = knownMarket(marketId, market);
  // Refuses a malformed step, tick or minimum size; parsed once per market record, read once per intent.
  const rules = marketRules(known);
  if (!isMarketTradable(known)) {
    refuse('market_inactive', marketId, 'the market is not active or not unlocked; only cancels are accepted');
  }
  return checkOnMarket(intent, known, rules, account, config);
}

/** The intent's id, strategy and market id, whatever its kind. */
function checkIdentity(intent: Intent): void {
  if (typeof intent.intentId !== 'string' || intent.intentId.length === 0 || typeof intent.strategy !== 'string') {
    refuse('intent', intent.intentId, 'an intent needs a non-empty intentId and the name of its strategy');
  }
  const marketId = intent.marketId;
  if (!Number.isSafeInteger(marketId) || marketId < 0 || marketId > UINT16_MAX) {
    refuse('market_id', marketId, `market id must be a whole number from 0 to ${UINT16_MAX} (16 bits)`);
  }
}

/** The market record, which must be the intent's market. */
function knownMarket(marketId: number, market: MarketView | undefined): MarketView {
  if (market === undefined) refuse('market_id', marketId, 'unknown market', 'check the id against GET /v1/markets');
  // The common case is the same digits; otherwise compare as numbers ("01" is market 1).
  if (
    market.market_id !== String(marketId) &&
    (!/^\d+$/.test(market.market_id) || BigInt(market.market_id) !== BigInt(marketId))
  ) {
    refuse('market_id', marketId, `the market record passed is market ${market.market_id}`);
  }
  return market;
}

/** An intent that needs a tradable market, checked against its rules. */
function checkOnMarket(
  intent: Exclude<Intent, { kind: 'cancel' | 'cancelAll' }>,
  market: MarketView,
  rules: MarketRules,
  account: AccountState,
  config: PreTradeConfig,
): Passed {
  switch (intent.kind) {
    case 'placeLimit':
      requireReduceOnlyIfMarketIs(market, intent.reduceOnly);
      return placed(intent, checkPlaceLimit(intent, market, rules, account, config));
    case 'placeMarket':
      requireReduceOnlyIfMarketIs(market, intent.reduceOnly);
      return placed(intent, checkPlaceMarket(intent, market, rules, account, config));
    case 'closePosition':
      return { ok: true, action: checkClosePosition(intent, market, rules, account, config).action, intent };
    case 'setLeverage':
      return { ok: true, action: checkSetLeverage(intent, rules), intent };
    case 'setMarginMode':
      return { ok: true, action: checkSetMarginMode(intent), intent };
    case 'adjustIsolatedMargin':
      return { ok: true, action: checkAdjustIsolatedMargin(intent, config), intent };
    case 'replace':
    case 'quote':
    case 'protect':
    case 'bracket':
      // The engine turns these into placements and cancels before any check (engine/quoting), or
      // keeps them as protections (engine/protection); a bracket's entry is checked as its own.
      return refuse('intent', intent.kind, `a ${intent.kind} intent is not an action: the engine runs it`);
    default:
      // Unreachable for typed callers; plugins are plain JS at runtime.
      return refuse('intent', (intent as { kind?: unknown }).kind, 'unknown intent kind');
  }
}

function checkCancel(
  target: { readonly intentId: string } | { readonly orderId: string },
  marketId: number,
): WireAction {
  if ('orderId' in target) {
    if (typeof target.orderId !== 'string' || !/^(0x)?[0-9a-fA-F]+$/.test(target.orderId)) {
      refuse('cancel_target', target.orderId, 'order_id must be the hex string returned by placement');
    }
  } else if (typeof target.intentId !== 'string' || target.intentId.length === 0) {
    refuse('cancel_target', target.intentId, 'a cancel names the intent that placed the order, or its order_id');
  }
  return { action: 'cancelOrder', market_id: marketId, target };
}

function requireReduceOnlyIfMarketIs(market: MarketView, reduceOnly: boolean): void {
  if (market.reduce_only === true && !reduceOnly) {
    refuse(
      'market_reduce_only',
      market.market_id,
      'this market accepts only reduce-only orders',
      'set reduceOnly or close the position',
    );
  }
}

/**
 * The passing verdict of an order: the intent snapped to the grid. The guards read its size and
 * limit price as decimals next; the exact values those texts were made from are handed to the
 * parse memo, so the intent's decimals are parsed once, here, and not again by each guard.
 */
function placed(intent: PlaceLimitIntent | PlaceMarketIntent, checked: CheckedPlacement): Passed {
  const action = checked.action;
  rememberDecimal(action.size, checked.size);
  if (checked.limitPrice !== undefined) rememberDecimal(action.price, checked.limitPrice);
  const snapped = intent.kind === 'placeLimit' ? snappedLimit(intent, action) : snappedMarket(intent, action);
  return { ok: true, action, intent: snapped };
}

function snappedLimit(intent: PlaceLimitIntent, action: CheckedPlacement['action']): PlaceLimitIntent {
  // Without rounding fields to drop, a plain copy (a rest pattern costs far more per intent).
  if (!Object.hasOwn(intent, 'sizeRounding') && !Object.hasOwn(intent, 'priceRounding'))
    return { ...intent, size: action.size, price: action.price };
  return withoutRounding(intent, action.size, action.price);
}

/**
 * The intent's own fields but its rounding choices, with the snapped size (and price): one loop,
 * about half of a rest pattern and a spread, which build two objects.
 */
function withoutRounding<T extends PlaceLimitIntent | PlaceMarketIntent>(intent: T, size: string, price?: string): T {
  const out: Record<string, unknown> = {};
  const fields = intent as unknown as Readonly<Record<string, unknown>>;
  for (const key in fields)
    if (key !== 'sizeRounding' && key !== 'priceRounding' && Object.hasOwn(fields, key)) out[key] = fields[key];
  out['size'] = size;
  if (price !== undefined) out['price'] = price;
  return out as unknown as T;
}

function snappedMarket(intent: PlaceMarketIntent, action: CheckedPlacement['action']): PlaceMarketIntent {
  if (!Object.hasOwn(intent, 'sizeRounding')) return { ...intent, size: action.size };
  return withoutRounding(intent, action.size);
}
