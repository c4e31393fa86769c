import { expect } from 'vitest';
import type { ChannelMessage } from '../../../src/venue/schemas/wsFrames.js';
import type { OrderbookLevel } from '../../../src/venue/schemas/wsFramesOrderbook.js';
import type { DecodedServerFrame } from '../../../src/venue/ws/decodeServerFrame.js';
import { keyOrder } from './fastDecodeArbitraries.js';

/**
 * Two decodings of one frame are the same: the same kind, strictly equal (a refusal's reason and
 * failure included), the message's keys in the same order, the oracle's prices in the same Map
 * order, and every orderbook level the same once its lazy conversions are read (a level keeps the
 * wire text and converts on first read; `toStrictEqual` sees only the text).
 */
export function expectSameDecoding(actual: DecodedServerFrame, expected: DecodedServerFrame): void {
  if (!isHot(actual) || !isHot(expected)) {
    // The other channels and control frames go one way only (the scanner reads no other); their
    // records keep what was sent (own `constructor` keys, deep nesting) that neither
    // `toStrictEqual` nor JSON text can compare, so the kind and channel are.
    expect(summary(actual)).toStrictEqual(summary(expected));
    return;
  }
  expect(actual).toStrictEqual(expected);
  if (actual.kind !== 'channel' || expected.kind !== 'channel') return;
  expect(keyOrder(actual.message)).toStrictEqual(keyOrder(expected.message));
  expect(readOut(actual.message)).toStrictEqual(readOut(expected.message));
}

function summary(decoded: DecodedServerFrame): unknown {
  return decoded.kind === 'channel' ? ['channel', decoded.message.channel] : [decoded.kind];
}

function isHot(decoded: DecodedServerFrame): boolean {
  return decoded.kind !== 'channel' || decoded.message.channel === 'oracle' || decoded.message.channel === 'orderbook';
}

/** What a strategy can read of a message that `toStrictEqual` does not compare. */
function readOut(message: ChannelMessage): unknown {
  if (message.channel === 'oracle') return [...message.prices].map(([id, price]) => [id, Object.entries(price)]);
  if (message.channel === 'orderbook') return [message.bids.map(levelValues), message.asks.map(levelValues)];
  return null;
}

function levelValues(level: OrderbookLevel): unknown {
  return {
    price: level.price,
    quantity: level.quantity,
    priceWei: level.priceWei,
    quantityWei: level.quantityWei,
    priceWeiText: level.priceWeiText,
    quantityWeiText: level.quantityWeiText,
    orderCount: level.orderCount,
    isDeletion: level.isDeletion,
    json: JSON.stringify(level),
  };
}
