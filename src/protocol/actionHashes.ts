import { keccak256 } from './keccak.js';
import { checkRange, checkUint } from '../core/integerRange.js';
import { checkEnum, MarginMode } from './enums.js';
import { toHex, WORD, writeCheckedInt, writeCheckedUint, writeUintWord } from './abiWords.js';
import { SPEC_SELECTORS, selectorWord, type SelectorTable } from './selectors.js';

/**
 * Action hashes (spec "Action hashes"): keccak-256 over the selector word followed by each
 * operand left-padded to a 32-byte word, exactly as ABI encoding lays them out.
 */
export type Hex32 = `0x${string}`;

function hashWords(selector: string, write: (buf: Uint8Array) => void, operandCount: number): Hex32 {
  return toHex(hashWordBytes(selector, write, operandCount));
}

/** The hash as its 32 bytes: what a permit's struct hash takes, with no hex text made and read back. */
function hashWordBytes(selector: string, write: (buf: Uint8Array) => void, operandCount: number): Uint8Array {
  const buf = new Uint8Array((operandCount + 1) * WORD);
  buf.set(selectorWord(selector), 0);
  write(buf);
  return keccak256(buf);
}

export interface PlaceOrderHashInput {
  readonly orderWord: bigint;
  readonly builderId?: number;
  readonly builderFeeBps?: number;
  readonly clientOrderId?: bigint;
  readonly ttlUnits?: number;
}

export const HEADER_PERMIT = 0x01;
export const HEADER_BUILDER = 0x02;
export const HEADER_CLIENT_ORDER_ID = 0x04;
export const HEADER_TTL = 0x10;

export function placeOrderHeaderFlags(input: Omit<PlaceOrderHashInput, 'orderWord'>): number {
  return (
    HEADER_PERMIT |
    ((input.builderId ?? 0) !== 0 ? HEADER_BUILDER : 0) |
    ((input.clientOrderId ?? 0n) !== 0n ? HEADER_CLIENT_ORDER_ID : 0) |
    ((input.ttlUnits ?? 0) !== 0 ? HEADER_TTL : 0)
  );
}

/**
 * selector, uint8 headerFlags, uint88 orderData, uint16 builderId, [uint16 builderFeeBps only
 * when > 0], uint64 clientOrderId, uint16 ttlUnits. Absent optionals are zero words.
 */
export function placeOrderHash(input: PlaceOrderHashInput, selectors: SelectorTable = SPEC_SELECTORS): Hex32 {
  return toHex(placeOrderHashBytes(input, selectors));
}

/** `placeOrderHash` as its 32 bytes. */
export function placeOrderHashBytes(input: PlaceOrderHashInput, selectors: SelectorTable = SPEC_SELECTORS): Uint8Array {
  const builderId = checkUint(input.builderId ?? 0, 16, 'builder_id');
  const feeBps = checkUint(input.builderFeeBps ?? 0, 16, 'builder_fee_bps');
  const clientOrderId = checkUint(input.clientOrderId ?? 0n, 64, 'client_order_id');
  const ttl = checkUint(input.ttlUnits ?? 0, 16, 'ttl_units');
  const withFee = feeBps > 0n;
  const header = placeOrderHeaderFlags(input);
  return hashWordBytes(
    selectors.placeOrder,
    (buf) => {
      let o = WORD;
      writeUintWord(buf, o, BigInt(header));
      writeCheckedUint(buf, (o += WORD), input.orderWord, 88, 'orderData');
      writeUintWord(buf, (o += WORD), builderId);
      if (withFee) writeUintWord(buf, (o += WORD), feeBps);
      writeUintWord(buf, (o += WORD), clientOrderId);
      writeUintWord(buf, o + WORD, ttl);
    },
    withFee ? 6 : 5,
  );
}

/** uint256 marketId, uint256 restingOrderId (from the open-orders read, not the order_id string). */
export function cancelOrderHash(
  marketId: bigint | number,
  restingOrderId: bigint,
  selectors: SelectorTable = SPEC_SELECTORS,
): Hex32 {
  return toHex(cancelOrderHashBytes(marketId, restingOrderId, selectors));
}

/** `cancelOrderHash` as its 32 bytes. */
export function cancelOrderHashBytes(
  marketId: bigint | number,
  restingOrderId: bigint,
  selectors: SelectorTable = SPEC_SELECTORS,
): Uint8Array {
  return hashWordBytes(
    selectors.cancelOrder,
    (buf) => {
      writeCheckedUint(buf, WORD, marketId, 256, 'market_id');
      writeCheckedUint(buf, 2 * WORD, restingOrderId, 256, 'resting_order_id');
    },
    2,
  );
}

/** uint256 marketId (layout per venue-facts; the spec leaves it "not shown"). */
export function cancelAllOrdersHash(marketId: bigint | number, selectors: SelectorTable = SPEC_SELECTORS): Hex32 {
  return hashWords(selectors.cancelAllOrders, (buf) => writeCheckedUint(buf, WORD, marketId, 256, 'market_id'), 1);
}

/** uint16 marketId, uint8 leverage in 1..255. */
export function updateLeverageHash(
  marketId: number,
  leverage: number,
  selectors: SelectorTable = SPEC_SELECTORS,
): Hex32 {
  return hashWords(
    selectors.updateLeverage,
    (buf) => {
      writeCheckedUint(buf, WORD, marketId, 16, 'market_id');
      writeUintWord(buf, 2 * WORD, checkRange(leverage, 1n, 255n, 'leverage'));
    },
    2,
  );
}

/** uint16 marketId, uint8 marginMode (0 Cross, 1 Isolated). */
export function updateMarginModeHash(
  marketId: number,
  marginMode: MarginMode,
  selectors: SelectorTable = SPEC_SELECTORS,
): Hex32 {
  const mode = checkEnum(marginMode, MarginMode, 'margin_mode');
  return hashWords(
    selectors.updateMarginMode,
    (buf) => {
      writeCheckedUint(buf, WORD, marketId, 16, 'market_id');
      writeUintWord(buf, 2 * WORD, BigInt(mode));
    },
    2,
  );
}

/** uint16 marketId, int128 amount (positive adds margin, negative removes; sign-extended). */
export function updateIsolatedMarginHash(
  marketId: number,
  amount: bigint,
  selectors: SelectorTable = SPEC_SELECTORS,
): Hex32 {
  return hashWords(
    selectors.updateIsolatedMargin,
    (buf) => {
      writeCheckedUint(buf, WORD, marketId, 16, 'market_id');
      writeCheckedInt(buf, 2 * WORD, amount, 128, 'amount');
    },
    2,
  );
}
