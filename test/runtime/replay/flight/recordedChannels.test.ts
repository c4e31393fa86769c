import { describe, expect, it } from 'vitest';
import { RecordedChannels } from '../../../../src/runtime/replay/flight/recordedChannels.js';
import type { FramesLost } from '../../../../src/venue/ws/oracleBlockGaps.js';

function oracleFrame(block: number): string {
  return JSON.stringify({
    channel: 'oracle',
    type: 'update',
    market_id: null,
    data: { prices: { '1': { mark_price: '65000000000000000000000' } }, timestamp: 1_800_000_000 },
    tx_hash: `0x${'ab'.repeat(32)}`,
    block_number: block,
    log_index: 0,
    worker_timestamp: '1800000000000000000',
  });
}

describe('RecordedChannels', () => {
  it("finds frames lost on a recorded connection as the client does, at the replay time, and not across a reconnect; and when each connection's blocks began to count", () => {
    let now = 1_000;
    const channels = new RecordedChannels(() => now);
    const lost: FramesLost[] = [];
    channels.framesLost$.subscribe((l) => lost.push(l));
    const counted: number[] = [];
    channels.streamCounted$.subscribe((atMs) => counted.push(atMs));
    const marks: number[] = [];
    channels.channel('oracle').subscribe((m) => marks.push(m.blockNumber));

    channels.state({ status: 'authenticated', connections: 1 });
    channels.deliver(oracleFrame(10));
    now = 1_250;
    channels.deliver(oracleFrame(11));
    now = 2_300;
    channels.deliver(oracleFrame(15));
    expect(lost).toEqual([{ sinceMs: 1_250, firstMissingBlock: 12, lastMissingBlock: 14 }]);

    // A new connection: its first frame follows nothing, whatever the block.
    channels.state({ status: 'open', connections: 2 });
    now = 9_000;
    channels.deliver(oracleFrame(40));
    channels.deliver(oracleFrame(41));
    expect(lost).toHaveLength(1);
    expect(marks).toEqual([10, 11, 15, 40, 41]);
    // Each connection's blocks counted from its first oracle frame, as the client reports it.
    expect(counted).toEqual([1_000, 9_000]);
    channels.close();
  });
});
