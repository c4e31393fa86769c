import { checkRange, checkUint, uintMax } from '../core/integerRange.js';
import { InvalidValueError } from '../core/invalidValueError.js';
import { checkEnum, OrderType, Side, StpMode, TimeInForce } from './enums.js';
import { MAX_PRICE_TICKS, MAX_SIZE_STEPS } from './orderQuantities.js';

/**
 * The packed order word (uint88, "orderData"):
 * [87:70] marketId · [69:38] sizeSteps · [37:14] priceTicks · [13:6] orderFlags · [5:1] version=1 · [0] reserved=0.
 * orderFlags: bit0 side (1 = Sell), bit1 postOnly, bit2 reduceOnly, bits4:3 stpMode,
 * bit5 orderType (1 = Limit), bits7:6 timeInForce.
 */
export interface OrderWordFields {
  readonly marketId: number;
  readonly sizeSteps: bigint;
  readonly priceTicks: bigint;
  readonly side: Side;
  readonly postOnly: boolean;
  readonly reduceOnly: boolean;
  readonly stpMode: StpMode;
  readonly orderType: OrderType;
  readonly timeInForce: TimeInForce;
}

export const ORDER_WORD_VERSION = 1n;
const MAX_ORDER_WORD = uintMax(88);

export function orderFlags(
  fields: Pick<OrderWordFields, 'side' | 'postOnly' | 'reduceOnly' | 'stpMode' | 'orderType' | 'timeInForce'>,
): number {
  const side = checkEnum(fields.side, Side, 'side');
  const stp = checkEnum(fields.stpMode, StpMode, 'stp_mode');
  const type = checkEnum(fields.orderType, OrderType, 'order_type');
  const tif = checkEnum(fields.timeInForce, TimeInForce, 'time_in_force');
  return (
    side | (fields.postOnly ? 1 << 1 : 0) | (fields.reduceOnly ? 1 << 2 : 0) | (stp << 3) | (type << 5) | (tif << 6)
  );
}

export function packOrderWord(fields: OrderWordFields): bigint {
  const marketId = checkUint(fields.marketId, 16, 'market_id');
  const size = checkRange(fields.sizeSteps, 1n, MAX_SIZE_STEPS, 'size_steps');
  const price = checkRange(fields.priceTicks, 0n, MAX_PRICE_TICKS, 'price_ticks');
  const flags = BigInt(orderFlags(fields));
  return (marketId << 70n) | (size << 38n) | (price << 14n) | (flags << 6n) | (ORDER_WORD_VERSION << 1n);
}

export function unpackOrderWord(word: bigint): OrderWordFields {
  if (word < 0n || word > MAX_ORDER_WORD)
    throw new InvalidValueError('orderData', word, `uint88: 0 to ${MAX_ORDER_WORD}`);
  const version = (word >> 1n) & 0x1fn;
  if (version !== ORDER_WORD_VERSION) throw new InvalidValueError('orderData.version', version, '1');
  if ((word & 1n) !== 0n) throw new InvalidValueError('orderData.reserved', 1, '0');
  const flags = Number((word >> 6n) & 0xffn);
  return {
    marketId: Number(word >> 70n),
    sizeSteps: (word >> 38n) & MAX_SIZE_STEPS,
    priceTicks: (word >> 14n) & MAX_PRICE_TICKS,
    side: (flags & 1) as Side,
    postOnly: (flags & 2) !== 0,
    reduceOnly: (flags & 4) !== 0,
    stpMode: checkEnum((flags >> 3) & 3, StpMode, 'orderData.stpMode'),
    orderType: ((flags >> 5) & 1) as OrderType,
    timeInForce: ((flags >> 6) & 3) as TimeInForce,
  };
}
