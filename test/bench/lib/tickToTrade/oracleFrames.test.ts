import { describe, expect, it } from 'vitest';
import { oracleFrames } from '../../../../bench/lib/tickToTrade/oracleFrames.js';
import { decodeServerFrame } from '../../../../src/venue/ws/decodeServerFrame.js';

describe('oracleFrames', () => {
  it('are oracle frames the client decodes, one block apart, each with a new mark for market 1', () => {
    const frames = oracleFrames(50);
    const decoded = frames.map((f) => decodeServerFrame(f));
    const marks = decoded.map((d) => {
      if (d.kind !== 'channel' || d.message.channel !== 'oracle')
        throw new Error(`not an oracle message: ${JSON.stringify(d).slice(0, 200)}`);
      return { block: d.message.blockNumber, mark: d.message.prices.get(1)?.markPrice, markets: d.message.prices.size };
    });
    expect(marks.map((m) => m.block)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(marks.every((m) => m.markets === 4 && /^\d+(\.\d+)?$/.test(m.mark ?? ''))).toBe(true);
    expect(new Set(marks.map((m) => m.mark)).size).toBeGreaterThan(25);
    expect(Number(marks[0]!.mark)).toBeGreaterThan(60_000);
  });

  it('are the same for the same seed', () => {
    expect(oracleFrames(3, 7)).toEqual(oracleFrames(3, 7));
    expect(oracleFrames(3, 7)).not.toEqual(oracleFrames(3, 8));
  });
});
