import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isPerpbotError } from '../../../src/core/perpbotError.js';
import { readSegment, type ReadRecordingOptions } from '../../../src/runtime/recording/readRecording.js';

const HEADER = JSON.stringify({
  type: 'header',
  version: 1,
  run: 'hostile',
  segment: 1,
  startedAt: 1_800_000_000_000,
  venue: { profile: 'sim', restUrl: 'http://127.0.0.1:1', wsUrl: 'ws://127.0.0.1:1' },
  markets: [1],
  channels: ['orderbook'],
});

async function failureOf(path: string, options: ReadRecordingOptions = {}): Promise<{ code: string; message: string }> {
  let records = 0;
  try {
    for await (const _ of readSegment(path, options)) records++;
  } catch (error) {
    if (isPerpbotError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error(`read ${records} records without a refusal`);
}

describe('readSegment on a hostile recording', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'perpbot-hostile-segment-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a line longer than its bound, without holding the rest of it', async () => {
    const path = join(dir, 'long.jsonl.gz');
    writeFileSync(path, gzipSync(`${HEADER}\n${'7'.repeat(3_000_000)}\n`));
    expect(await failureOf(path, { limits: { maxLineChars: 1_000_000 } })).toEqual({
      code: 'RECORDING_FORMAT',
      message: `${path} line 2 is not a recording record: longer than 1000000 characters`,
    });
  });

  it('refuses a segment that inflates past its bound (a gzip bomb of concatenated members)', async () => {
    const path = join(dir, 'bomb.jsonl.gz');
    const gap = `${JSON.stringify({ type: 'gap', t: 1, src: 'public', reason: 'x'.repeat(1000) })}\n`;
    const member = gzipSync(gap.repeat(1000));
    writeFileSync(path, Buffer.concat([gzipSync(`${HEADER}\n`), ...Array.from({ length: 200 }, () => member)]));
    const refusal = await failureOf(path, { limits: { maxInflationRatio: 50, minInflatedBytes: 1 } });
    expect(refusal.code).toBe('RECORDING_FORMAT');
    expect(refusal.message).toMatch(/inflates past \d+ bytes \(more than 50 times its size\): not a recording segment/);
  });

  it('stops at the next chunk once its signal aborts', async () => {
    const path = join(dir, 'long-valid.jsonl.gz');
    const gap = `${JSON.stringify({ type: 'gap', t: 1, src: 'public', reason: 'y'.repeat(500) })}\n`;
    writeFileSync(path, gzipSync(`${HEADER}\n${gap.repeat(20_000)}`));
    const stop = new AbortController();
    let records = 0;
    const reading = (async () => {
      for await (const _ of readSegment(path, { signal: stop.signal }))
        if (++records === 100) stop.abort(new Error('received SIGTERM'));
    })();
    await expect(reading).rejects.toMatchObject({
      code: 'RECORDING_STOPPED',
      message: `reading ${path} stopped: received SIGTERM`,
    });
    expect(records).toBe(100);
  });

  it('quotes a line that is not JSON with its control characters escaped', async () => {
    const path = join(dir, 'escapes.jsonl.gz');
    writeFileSync(path, gzipSync(`${HEADER}\n\u001b]0;owned\u0007\u001b[2J{"type":\n`));
    const refusal = await failureOf(path);
    expect(refusal.message).toContain('line 2 is not a recording record: not JSON');
    expect(
      [...refusal.message].some((c) => c.charCodeAt(0) < 0x20 || (c.charCodeAt(0) >= 0x7f && c.charCodeAt(0) <= 0x9f)),
    ).toBe(false);
    expect(refusal.message).toContain('\\x1b');
  });
});
