import { describe, expect, it } from 'vitest';
import { decodeFrameByParse, decodeServerFrame } from '../../../src/venue/ws/decodeServerFrame.js';
import { scanHotFrame } from '../../../src/venue/ws/scanHotFrame.js';
import { wireSample } from '../wireSamples/wireSample.js';
import { expectSameDecoding } from './sameDecoding.js';

/**
 * What the text scanner reads itself and what it leaves to the JSON.parse way, one rule at a
 * time. A frame it leaves is decoded exactly as before: accepted with the same message, or
 * refused with the same reason.
 */

/** An orderbook update as the simulator writes it. */
const ORDERBOOK =
  '{"method":"update","type":"update","channel":"orderbook","market_id":"2","data":{"market_id":2,"bids":[],' +
  '"asks":[{"price":"3201.16","quantity":"0","order_count":0},{"price":"3202.04","quantity":"0.014","order_count":1}]},' +
  '"level_count":8,"block_number":3,"log_index":0,"worker_timestamp":"1796578241705000000","checksum":4250686079}';
/** An oracle update as the simulator writes it. */
const ORACLE =
  '{"channel":"oracle","type":"update","market_id":null,"data":{"prices":{"1":{"mark_price":"64973156000000000000000",' +
  '"index_price":"64975821000000000000000"},"2":{"mark_price":"3201769700000000000000"}},"timestamp":1796578241},' +
  '"tx_hash":"0x1082eb","block_number":3,"log_index":0,"worker_timestamp":"1796578241705000000"}';

function replaced(text: string, from: string, to: string): string {
  expect(text).toContain(from);
  return text.replace(from, to);
}

describe('scanHotFrame reads the hot frames in the venue spelling', () => {
  it("reads the simulator's orderbook update and oracle update as the JSON.parse way decodes them", () => {
    for (const text of [ORDERBOOK, ORACLE]) {
      expect(scanHotFrame(text)).toBeDefined();
      expectSameDecoding(decodeServerFrame(text), decodeFrameByParse(text));
    }
    const book = scanHotFrame(ORDERBOOK);
    if (book?.channel !== 'orderbook') throw new Error('not an orderbook message');
    expect([book.marketId, book.checksum, book.levelCount, book.asks[1]?.price, book.asks[0]?.isDeletion]).toEqual([
      2,
      4_250_686_079,
      8,
      '3202.04',
      true,
    ]);
    const oracle = scanHotFrame(ORACLE);
    if (oracle?.channel !== 'oracle') throw new Error('not an oracle message');
    expect([...oracle.prices]).toEqual([
      [1, { indexPrice: '64975.821', markPrice: '64973.156' }],
      [2, { markPrice: '3201.7697' }],
    ]);
  });

  it("reads the venue's captured orderbook snapshot sent compact; indented, it is left to JSON.parse with the same result", () => {
    const snapshot = wireSample('ws-orderbook-snapshot.fb.json');
    const compact = JSON.stringify(snapshot);
    expect(scanHotFrame(compact)).toBeDefined();
    expectSameDecoding(decodeServerFrame(compact), decodeFrameByParse(compact));
    const indented = JSON.stringify(snapshot, null, 2);
    expect(scanHotFrame(indented)).toBeUndefined();
    expect(decodeServerFrame(indented).kind).toBe('channel');
    expectSameDecoding(decodeServerFrame(indented), decodeFrameByParse(indented));
  });
});

describe('frames in another spelling are left to the JSON.parse way, which accepts them as before', () => {
  const respelled: [string, string][] = [
    ['whitespace between the tokens', JSON.stringify(JSON.parse(ORDERBOOK), null, 1)],
    ['a line feed after the frame', `${ORACLE}\n`],
    ['data before channel', replaced(ORDERBOOK, '"channel":"orderbook",', '').replace(/}$/, ',"channel":"orderbook"}')],
    [
      'a level with its keys in another order',
      replaced(ORDERBOOK, '{"price":"3201.16","quantity":"0",', '{"quantity":"0","price":"3201.16",'),
    ],
    ['an escaped character in a price', replaced(ORDERBOOK, '"3201.16"', '"3201.1\\u0036"')],
    ['an escaped character in a key', replaced(ORACLE, '"tx_hash"', '"tx\\u005fhash"')],
    [
      'a key written twice (JSON.parse keeps the last)',
      replaced(ORDERBOOK, '"block_number":3,', '"block_number":3,"block_number":4,'),
    ],
    ['an oracle market written twice', replaced(ORACLE, '"2":{', '"1":{"mark_price":"1"},"2":{')],
    ['an integer written as 1.0', replaced(ORDERBOOK, '"order_count":1}', '"order_count":1.0}')],
    ['an integer written as 1e0', replaced(ORDERBOOK, '"log_index":0', '"log_index":0e0')],
    ['a 16-digit block number', replaced(ORDERBOOK, '"block_number":3', '"block_number":1000000000000000')],
    ['a key no frame has', replaced(ORDERBOOK, '"level_count":8', '"seq":1,"level_count":8')],
    ['an extra key in a level', replaced(ORDERBOOK, '"order_count":0}', '"order_count":0,"id":1}')],
    ['the oracle markets out of order', replaced(ORACLE, '"prices":{', '"prices":{"9":{},')],
    ['a fractional oracle timestamp', replaced(ORACLE, '"timestamp":1796578241', '"timestamp":1796578241.5')],
    ['method not a string', replaced(ORDERBOOK, '"method":"update"', '"method":1')],
    [
      "an orderbook's level_count on an oracle frame",
      replaced(ORACLE, '"log_index":0', '"log_index":0,"level_count":1'),
    ],
  ];
  it.each(respelled)('%s', (_name, text) => {
    expect(scanHotFrame(text)).toBeUndefined();
    const expected = decodeFrameByParse(text);
    expect(expected.kind).toBe('channel');
    expectSameDecoding(decodeServerFrame(text), expected);
  });
});

describe('frames the JSON.parse way refuses are not read, and are refused for the same reason', () => {
  const refused: [string, string][] = [
    ['a market id with a leading zero', replaced(ORDERBOOK, '"market_id":"2"', '"market_id":"02"')],
    ['an oracle market key with a leading zero', replaced(ORACLE, '"2":{', '"02":{')],
    ['a market id past 65535', replaced(ORDERBOOK, '"market_id":2,', '"market_id":65536,')],
    ['envelope and data market ids that differ', replaced(ORDERBOOK, '"market_id":"2"', '"market_id":"3"')],
    ['a number with a leading zero (not JSON)', replaced(ORDERBOOK, '"block_number":3', '"block_number":03')],
    ['a raw control character in the tx hash (not JSON)', replaced(ORACLE, '"0x1082eb"', '"0x10\u000182eb"')],
    ['text after the frame', `${ORACLE}x`],
    ['the frame cut short', ORACLE.slice(0, -2)],
    ['a checksum past 2^32 - 1', replaced(ORDERBOOK, '"checksum":4250686079', '"checksum":4294967296')],
    ['a price of 19 integer digits', replaced(ORDERBOOK, '"3201.16"', '"1234567890123456789"')],
    ['a quantity with 19 decimals', replaced(ORDERBOOK, '"0.014"', '"0.0140000000000000000"')],
    ['a negative order count', replaced(ORDERBOOK, '"order_count":1', '"order_count":-1')],
    [
      'an empty worker timestamp',
      replaced(ORACLE, '"worker_timestamp":"1796578241705000000"', '"worker_timestamp":""'),
    ],
    ['a wei price with a fraction', replaced(ORACLE, '"3201769700000000000000"', '"3201.7697"')],
    ['an oracle frame without its tx hash', replaced(ORACLE, '"tx_hash":"0x1082eb",', '')],
    ['an oracle frame with a market id', replaced(ORACLE, '"market_id":null', '"market_id":1')],
    ['an orderbook frame without levels', replaced(ORDERBOOK, '"bids":[],', '')],
  ];
  it.each(refused)('%s', (_name, text) => {
    expect(scanHotFrame(text)).toBeUndefined();
    const expected = decodeFrameByParse(text);
    expect(expected.kind).toBe('malformed');
    expectSameDecoding(decodeServerFrame(text), expected);
  });
});
