import { describe, expect, it } from 'vitest';
import { ChannelTally } from '../../../../src/runtime/diagnostics/probe/channelTally.js';
import { CONTROL_ROW, FrameJudge } from '../../../../src/runtime/diagnostics/probe/frameJudge.js';
import type { WireDecodeFailure } from '../../../../src/venue/wireDecodeFailure.js';

function judged() {
  const tallies = new Map(['trades', 'funding', 'fills', 'orders'].map((c) => [c, new ChannelTally(c, true)]));
  const saved: { failure: WireDecodeFailure; raw: unknown }[] = [];
  const saveSample = (failure: WireDecodeFailure, raw: unknown) => {
    saved.push({ failure, raw });
    return Promise.resolve(`/samples/${saved.length}.json`);
  };
  const judge = new FrameJudge(tallies);
  const row = (name: string) => (tallies.get(name) ?? judge.control).row(saveSample, 2000);
  return { judge, tallies, saved, row };
}

const ack = (channel: string, status = 'success', message = 'subscribed') =>
  JSON.stringify({ type: 'subscribed', method: 'subscribe', status, channel, message, data: { market_ids: [1] } });

describe('the probe judging frames', () => {
  it('an acked channel that stays silent is ok; one never acked failed', async () => {
    const { judge, row } = judged();
    judge.judge(ack('funding'));
    expect(await row('funding')).toMatchObject({ status: 'ok', detail: expect.stringContaining('silent') });
    expect(await row('fills')).toMatchObject({ status: 'failed', detail: 'no subscribe ack within 2 s' });
  });

  it('a refusal (an ack with status "error", venue-wire.md §3, or an error frame) fails the row with the venue words', async () => {
    const { judge, row } = judged();
    judge.judge(ack('funding', 'error', 'invalid channel: funding'));
    judge.judge(
      JSON.stringify({ type: 'error', status: 'error', message: 'authentication required for orders channel' }),
    );
    expect(await row('funding')).toMatchObject({
      status: 'failed',
      detail: 'subscribe refused: invalid channel: funding',
    });
    expect(await row('orders')).toMatchObject({
      status: 'failed',
      detail: 'subscribe refused: authentication required for orders channel',
    });
  });

  it('a channel frame the decoder refuses departs its row with the field, counted per shape, and the first sampled', async () => {
    const { judge, saved, row } = judged();
    judge.judge(ack('trades'));
    const bad = { channel: 'trades', type: 'update', market_id: 1, worker_timestamp: '1', data: { price: 12.5 } };
    judge.judge(JSON.stringify(bad));
    judge.judge(JSON.stringify(bad));
    const trades = await row('trades');
    expect(trades.status).toBe('departed');
    expect(trades.failure?.source).toBe('ws:trades');
    expect(trades.failure?.field).toMatch(/^data(\.|$)/);
    expect(trades.detail).toContain('(2 times)');
    expect(trades.sample).toBe('/samples/1.json');
    expect(saved).toEqual([{ failure: trades.failure, raw: bad }]);
  });

  it('a frame that is not JSON departs the control row; decoded control frames are counted there', async () => {
    const { judge, row } = judged();
    judge.judge(ack('trades'));
    judge.judge('{"oops"');
    const control = await row(CONTROL_ROW);
    expect(control).toMatchObject({ status: 'departed', failure: { source: 'ws:control', expected: 'JSON' } });
  });

  it('wakes whoever waits for the auth reply', async () => {
    const { judge } = judged();
    const reply = judge.nextAuthReply();
    judge.judge(
      JSON.stringify({
        method: 'auth_v2',
        status: 'success',
        data: { account: `0x${'1'.repeat(40)}`, signer: `0x${'2'.repeat(40)}` },
      }),
    );
    expect(await reply).toMatchObject({ method: 'auth_v2', status: 'success' });
  });

  it('a skipped channel says why', async () => {
    const { tallies, row } = judged();
    tallies.get('orders')?.skip('private channel, not subscribed: auth_v2 skipped');
    expect(await row('orders')).toMatchObject({
      status: 'skipped',
      detail: expect.stringContaining('auth_v2 skipped'),
    });
  });
});
