import { describe, expect, it } from 'vitest';
import { RecordedBook } from '../../../src/sim/replay/recordedBook.js';

const WEI = 10n ** 18n;
const TICK = WEI / 10n; // 0.1
const STEP = WEI / 1000n; // 0.001

const level = (price: string, quantity: string) => ({
  priceWeiText: (BigInt(Math.round(Number(price) * 100)) * (WEI / 100n)).toString(),
  quantityWei: BigInt(Math.round(Number(quantity) * 1_000_000)) * (WEI / 1_000_000n),
});

describe('RecordedBook', () => {
  it('shows an off-grid price no better than recorded (bids down, asks up) and sizes in whole steps', () => {
    const book = new RecordedBook(TICK, STEP);
    const changes = book.replace([level('100.05', '0.0025')], [level('100.15', '1')]);
    expect(changes).toEqual([
      { side: 0, priceTicks: 1000, steps: 2 },
      { side: 1, priceTicks: 1002, steps: 1000 },
    ]);
    expect(book.displayed(0, 1000)).toBe(2);
  });

  it('one off-grid price, seen again, still rounds down as a bid and up as an ask', () => {
    const book = new RecordedBook(TICK, STEP);
    book.replace([level('100.05', '0.001')], []);
    const changes = book.replace([level('100.05', '0.002')], [level('100.05', '0.003')]);
    expect(changes).toEqual([
      { side: 0, priceTicks: 1000, steps: 2 },
      { side: 1, priceTicks: 1001, steps: 3 },
    ]);
  });

  it('adds up recorded prices that land on one tick, and an update of one of them keeps the other', () => {
    const book = new RecordedBook(TICK, STEP);
    book.replace([level('100.01', '0.002'), level('100.02', '0.003')], []);
    expect(book.displayed(0, 1000)).toBe(5);
    expect(book.update([level('100.01', '0')], [])).toEqual([{ side: 0, priceTicks: 1000, steps: 3 }]);
  });

  it('a snapshot reports the levels gone with 0 steps', () => {
    const book = new RecordedBook(TICK, STEP);
    book.replace([level('100', '1')], [level('101', '1')]);
    expect(book.replace([level('99', '1')], [])).toEqual([
      { side: 0, priceTicks: 1000, steps: 0 },
      { side: 0, priceTicks: 990, steps: 1000 },
      { side: 1, priceTicks: 1010, steps: 0 },
    ]);
  });
});
