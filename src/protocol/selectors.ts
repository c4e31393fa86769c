import { keccak256 } from './keccak.js';
import { utf8ToBytes } from '@noble/hashes/utils';

/**
 * Action selector strings are data, not code: the spec names them `SVC_PERPS_*_V1`, the real
 * venue `RISE_PERPS_*_V1` (venue-facts), and a venue profile chooses the table.
 */
export interface SelectorTable {
  readonly placeOrder: string;
  readonly cancelOrder: string;
  readonly cancelAllOrders: string;
  readonly updateLeverage: string;
  readonly updateMarginMode: string;
  readonly updateIsolatedMargin: string;
}

function table(prefix: string): SelectorTable {
  return Object.freeze({
    placeOrder: `${prefix}_PERPS_PLACE_ORDER_V1`,
    cancelOrder: `${prefix}_PERPS_CANCEL_ORDER_V1`,
    cancelAllOrders: `${prefix}_PERPS_CANCEL_ALL_ORDERS_V1`,
    updateLeverage: `${prefix}_PERPS_UPDATE_LEVERAGE_V1`,
    updateMarginMode: `${prefix}_PERPS_UPDATE_MARGIN_MODE_V1`,
    updateIsolatedMargin: `${prefix}_PERPS_UPDATE_ISOLATED_MARGIN_V1`,
  });
}

/** The spec's selector strings: the default. */
export const SPEC_SELECTORS: SelectorTable = table('SVC');
/** The real venue's selector strings (venue-facts). */
export const RISE_SELECTORS: SelectorTable = table('RISE');

export const SELECTOR_PROFILES = { spec: SPEC_SELECTORS, rise: RISE_SELECTORS } as const;
export type SelectorProfile = keyof typeof SELECTOR_PROFILES;

const selectorWords = new Map<string, Uint8Array>();

/** keccak-256 of the ASCII selector string: the first word of an action hash. Cached. */
export function selectorWord(selector: string): Uint8Array {
  let word = selectorWords.get(selector);
  if (word === undefined) {
    word = keccak256(utf8ToBytes(selector));
    selectorWords.set(selector, word);
  }
  return word;
}
