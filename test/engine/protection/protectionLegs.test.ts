import { describe, expect, it } from 'vitest';
import { wantedLegs } from '../../../src/engine/protection/protectionLegs.js';

describe('wantedLegs: the TP/SL a position needs', () => {
  it('a long gets a SELL stop-loss below and a take-profit above the average entry, of its whole size', () => {
    const legs = wantedLegs(
      { side: 'buy', size: '0.003', avgEntryPrice: '64000' },
      { stopLossBps: 50, takeProfitBps: 100, trigger: 'mark' },
      '0.1',
    );
    expect(legs).toEqual([
      { role: 'stop_loss', side: 'SELL', size: '0.003', stopPrice: '63680' },
      { role: 'take_profit', side: 'SELL', size: '0.003', stopPrice: '64640' },
    ]);
  });

  it('a short gets BUY legs: the stop-loss above, the take-profit below', () => {
    const legs = wantedLegs(
      { side: 'sell', size: '0.002', avgEntryPrice: '64000' },
      { stopLossBps: 50, takeProfitBps: 100, trigger: 'last' },
      '0.1',
    );
    expect(legs.map((l) => [l.role, l.side, l.stopPrice])).toEqual([
      ['stop_loss', 'BUY', '64320'],
      ['take_profit', 'BUY', '63360'],
    ]);
  });

  it('snaps to the price grid on the side that never loosens the stop nor lowers the take', () => {
    // 64001.7 × 0.995 = 63681.6915: a long's stop rounds up (toward the entry), its take-profit up too.
    const long = wantedLegs(
      { side: 'buy', size: '1', avgEntryPrice: '64001.7' },
      { stopLossBps: 50, takeProfitBps: 50, trigger: 'mark' },
      '1',
    );
    expect(long.map((l) => l.stopPrice)).toEqual(['63682', '64322']);
    // A short's stop rounds down (toward the entry), its take-profit down (more profit).
    const short = wantedLegs(
      { side: 'sell', size: '1', avgEntryPrice: '64001.7' },
      { stopLossBps: 50, takeProfitBps: 50, trigger: 'mark' },
      '1',
    );
    expect(short.map((l) => l.stopPrice)).toEqual(['64321', '63681']);
  });

  it('a flat or unknown position needs nothing; only configured legs are wanted', () => {
    expect(wantedLegs(undefined, { stopLossBps: 50, trigger: 'mark' }, '0.1')).toEqual([]);
    expect(
      wantedLegs({ side: 'buy', size: '0', avgEntryPrice: '1' }, { stopLossBps: 50, trigger: 'mark' }, '0.1'),
    ).toEqual([]);
    const onlyTp = wantedLegs(
      { side: 'buy', size: '1', avgEntryPrice: '100' },
      { takeProfitBps: 10, trigger: 'mark' },
      '0.01',
    );
    expect(onlyTp).toEqual([{ role: 'take_profit', side: 'SELL', size: '1', stopPrice: '100.1' }]);
  });
});
