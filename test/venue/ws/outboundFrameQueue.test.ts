import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { OutboundFrameQueue } from '../../../src/venue/ws/outboundFrameQueue.js';

function setup(
  maxFrames = 3,
  windowMs = 1000,
): { clock: ManualClock; queue: OutboundFrameQueue; sent: { text: string; at: number }[] } {
  const clock = new ManualClock(0);
  const sent: { text: string; at: number }[] = [];
  const queue = new OutboundFrameQueue((text) => sent.push({ text, at: clock.now() }), { clock, maxFrames, windowMs });
  return { clock, queue, sent };
}

describe('OutboundFrameQueue', () => {
  it('sends up to the limit at once and holds the rest until the window slides', async () => {
    const { clock, queue, sent } = setup();
    for (const t of ['a', 'b', 'c', 'd', 'e']) queue.push(t);
    await clock.advance(0);
    expect(sent.map((s) => s.text)).toEqual(['a', 'b', 'c']);
    expect(queue.pending).toBe(2);
    await clock.advance(999);
    expect(sent).toHaveLength(3);
    await clock.advance(1);
    expect(sent.map((s) => [s.text, s.at])).toEqual([
      ['a', 0],
      ['b', 0],
      ['c', 0],
      ['d', 1000],
      ['e', 1000],
    ]);
  });

  it('counts a sliding window, not calendar seconds', async () => {
    const { clock, queue, sent } = setup();
    queue.push('a');
    await clock.advance(600);
    queue.push('b');
    queue.push('c');
    queue.push('d');
    await clock.advance(0);
    expect(sent.map((s) => s.text)).toEqual(['a', 'b', 'c']);
    await clock.advance(400); // t = 1000: 'a' left the window
    expect(sent.map((s) => [s.text, s.at])).toEqual([
      ['a', 0],
      ['b', 600],
      ['c', 600],
      ['d', 1000],
    ]);
  });

  it('never has more than the limit in any window under a steady stream', async () => {
    const { clock, queue, sent } = setup(10, 1000);
    for (let i = 0; i < 35; i++) queue.push(String(i));
    await clock.advance(5000);
    expect(sent).toHaveLength(35);
    for (const frame of sent) {
      const inWindow = sent.filter((s) => s.at > frame.at - 1000 && s.at <= frame.at);
      expect(inWindow.length).toBeLessThanOrEqual(10);
    }
    expect(sent.map((s) => s.text)).toEqual(Array.from({ length: 35 }, (_, i) => String(i)));
  });

  it('drops pending frames on close', async () => {
    const { clock, queue, sent } = setup(1);
    queue.push('a');
    queue.push('b');
    await clock.advance(0);
    queue.close();
    queue.push('c');
    await clock.advance(5000);
    expect(sent.map((s) => s.text)).toEqual(['a']);
    expect(clock.pendingSleeps).toBe(0);
  });
});
