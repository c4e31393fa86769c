import { describe, expect, it } from 'vitest';
import { orderbookChecksum } from '../../../src/protocol/orderbookChecksum.js';
import { LocalOrderBook } from '../../../src/venue/orderbook/localOrderBook.js';
import { bookMessage, prices } from './bookFrames.js';

describe('LocalOrderBook', () => {
  it('builds from a snapshot: bids highest first, asks lowest first, exact decimals', () => {
    const book = new LocalOrderBook(1);
    const result = book.apply(
      bookMessage(
        'snapshot',
        1,
        [
          ['64999.9', '0.5'],
          ['65000.1', '0.00015'],
          ['64000', '2'],
        ],
        [
          ['65001', '1'],
          ['65000.2', '0.3'],
        ],
      ),
    );
    expect(result).toEqual({ kind: 'applied' });
    expect(book.synced).toBe(true);
    expect(prices(book.bids())).toEqual([
      ['65000.1', '0.00015'],
      ['64999.9', '0.5'],
      ['64000', '2'],
    ]);
    expect(prices(book.asks())).toEqual([
      ['65000.2', '0.3'],
      ['65001', '1'],
    ]);
    expect(book.bestBid()?.price).toBe('65000.1');
    expect(book.bestAsk()?.price).toBe('65000.2');
    expect(prices(book.bids(2))).toEqual([
      ['65000.1', '0.00015'],
      ['64999.9', '0.5'],
    ]);
    expect(book.blockNumber).toBe(1);
  });

  it('applies updates as absolute levels; quantity 0 deletes', () => {
    const book = new LocalOrderBook(1);
    book.apply(
      bookMessage(
        'snapshot',
        1,
        [
          ['100', '1'],
          ['99', '2'],
        ],
        [['101', '1']],
      ),
    );
    book.apply(
      bookMessage(
        'update',
        1,
        [
          ['100', '0.25'],
          ['99', '0'],
          ['98.5', '4'],
        ],
        [
          ['101', '0'],
          ['102', '7'],
        ],
        undefined,
        2,
      ),
    );
    expect(prices(book.bids())).toEqual([
      ['100', '0.25'],
      ['98.5', '4'],
    ]);
    expect(prices(book.asks())).toEqual([['102', '7']]);
    expect(book.blockNumber).toBe(2);
  });

  it('a new snapshot replaces the whole book', () => {
    const book = new LocalOrderBook(1);
    book.apply(bookMessage('snapshot', 1, [['100', '1']], [['101', '1']]));
    book.apply(bookMessage('snapshot', 1, [['90', '3']], []));
    expect(prices(book.bids())).toEqual([['90', '3']]);
    expect(book.asks()).toEqual([]);
    expect(book.bestAsk()).toBeUndefined();
  });

  it('ignores updates before the first snapshot and messages for other markets', () => {
    const book = new LocalOrderBook(1);
    expect(book.apply(bookMessage('update', 1, [['100', '1']], []))).toMatchObject({ kind: 'ignored' });
    expect(book.bids()).toEqual([]);
    book.apply(bookMessage('snapshot', 1, [], []));
    expect(book.apply(bookMessage('snapshot', 2, [['1', '1']], []))).toMatchObject({ kind: 'ignored' });
    expect(book.bids()).toEqual([]);
  });

  it('after invalidate() waits for a snapshot again', () => {
    const book = new LocalOrderBook(1);
    book.apply(bookMessage('snapshot', 1, [['100', '1']], []));
    book.invalidate();
    expect(book.apply(bookMessage('update', 1, [['100', '5']], []))).toMatchObject({ kind: 'ignored' });
    expect(book.apply(bookMessage('snapshot', 1, [['100', '6']], []))).toEqual({ kind: 'applied' });
    expect(prices(book.bids())).toEqual([['100', '6']]);
  });

  it('keeps one level per price whatever the decimal spelling', () => {
    const book = new LocalOrderBook(1);
    book.apply(bookMessage('snapshot', 1, [['100.50', '1']], []));
    book.apply(bookMessage('update', 1, [['100.5', '2']], []));
    expect(prices(book.bids())).toEqual([['100.5', '2']]);
  });
});

describe('LocalOrderBook checksum', () => {
  it('verifies the venue checksum after each message', () => {
    const book = new LocalOrderBook(1, orderbookChecksum);
    const snapshotSum = orderbookChecksum(
      [
        { price: '100', quantity: '1' },
        { price: '99', quantity: '2' },
      ],
      [{ price: '101', quantity: '3' }],
    );
    expect(
      book.apply(
        bookMessage(
          'snapshot',
          1,
          [
            ['99', '2'],
            ['100', '1'],
          ],
          [['101', '3']],
          snapshotSum,
        ),
      ),
    ).toEqual({ kind: 'applied' });
    const updateSum = orderbookChecksum(
      [{ price: '100', quantity: '1' }],
      [
        { price: '101', quantity: '3' },
        { price: '102', quantity: '1' },
      ],
    );
    expect(book.apply(bookMessage('update', 1, [['99', '0']], [['102', '1']], updateSum))).toEqual({ kind: 'applied' });
    expect(book.synced).toBe(true);
  });

  it('on a mismatch reports both sums, unsyncs, and ignores updates until a snapshot', () => {
    const book = new LocalOrderBook(1, orderbookChecksum);
    book.apply(bookMessage('snapshot', 1, [['100', '1']], []));
    const actual = orderbookChecksum([{ price: '100', quantity: '2' }], []);
    const wrong = (actual + 1) >>> 0;
    expect(book.apply(bookMessage('update', 1, [['100', '2']], [], wrong))).toEqual({
      kind: 'checksum-mismatch',
      expected: wrong,
      actual,
    });
    expect(book.synced).toBe(false);
    expect(book.apply(bookMessage('update', 1, [['100', '3']], []))).toMatchObject({ kind: 'ignored' });
    const fresh = orderbookChecksum([{ price: '100', quantity: '4' }], []);
    expect(book.apply(bookMessage('snapshot', 1, [['100', '4']], [], fresh))).toEqual({ kind: 'applied' });
    expect(book.synced).toBe(true);
  });
});
