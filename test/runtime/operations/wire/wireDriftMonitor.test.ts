import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../src/core/clock.js';
import { registerSecret } from '../../../../src/core/secretRegistry.js';
import { BotMetrics } from '../../../../src/runtime/operations/metrics/botMetrics.js';
import { createWireDriftMonitor } from '../../../../src/runtime/operations/wire/wireDriftMonitor.js';
import { WIRE_SAMPLES_DIR, sampleFileName } from '../../../../src/runtime/operations/wire/wireSampleStore.js';
import type { WireDecodeFailure } from '../../../../src/venue/wireDecodeFailure.js';

// A key this process holds, and an order id of the same length that must stay readable.
const HELD_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const ORDER_ID = '0x000000000000000000000001000000000000000000000007';
registerSecret(HELD_KEY);

const WEI_BOOK: WireDecodeFailure = {
  source: 'ws:orderbook',
  field: 'data.bids.0.price',
  expected: 'decimal string below 1e18',
  received: 'string "63218500000000000000000"',
};
const SAME_SHAPE_OTHER_LEVEL: WireDecodeFailure = {
  ...WEI_BOOK,
  field: 'data.bids.7.price',
  received: 'string "63000000000000000000000"',
};
const MARKETS: WireDecodeFailure = {
  source: 'rest:GET /v1/markets',
  field: 'data.markets.0.market_id',
  expected: 'string',
  received: 'number 1',
};

interface LogLine {
  readonly obj: Record<string, unknown>;
  readonly msg: string | undefined;
}

function recordingLogger(): { warn(obj: object, msg?: string): void; lines: LogLine[] } {
  const lines: LogLine[] = [];
  return { lines, warn: (obj, msg) => lines.push({ obj: obj as Record<string, unknown>, msg }) };
}

async function counted(metrics: BotMetrics, source: string): Promise<number | undefined> {
  const values = (await metrics.wireDecodeFailures.get()).values;
  return values.find((v) => v.labels.source === source)?.value;
}

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'perpbot-wire-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the wire drift monitor', () => {
  it('counts every failure by source in perpbot_wire_decode_failures_total', async () => {
    const metrics = new BotMetrics();
    const monitor = createWireDriftMonitor({
      logger: recordingLogger(),
      counter: metrics.wireDecodeFailures,
      journalDir: dir,
      clock: new ManualClock(0),
    });
    monitor.sink(WEI_BOOK, '{}');
    monitor.sink(SAME_SHAPE_OTHER_LEVEL, '{}');
    monitor.sink(MARKETS, {});
    await monitor.flush();
    expect(await counted(metrics, 'ws:orderbook')).toBe(2);
    expect(await counted(metrics, 'rest:GET /v1/markets')).toBe(1);
    expect(await metrics.registry.metrics()).toContain('perpbot_wire_decode_failures_total{source="ws:orderbook"} 2');
  });

  it('logs each distinct shape once with its field, expected and received, then again at 10, 100...', async () => {
    const logger = recordingLogger();
    const monitor = createWireDriftMonitor({ logger, journalDir: dir, clock: new ManualClock(0) });
    for (let i = 0; i < 12; i++) monitor.sink(i % 2 === 0 ? WEI_BOOK : SAME_SHAPE_OTHER_LEVEL, '{}');
    monitor.sink(MARKETS, '{}');
    await monitor.flush();
    // Each first line follows its sample's write, so two shapes' lines come in either order.
    const firsts = logger.lines
      .filter((l) => l.obj['count'] === undefined)
      .sort((a, b) => String(b.obj['source']).localeCompare(String(a.obj['source'])));
    expect(firsts.map((l) => [l.obj['source'], l.obj['field'], l.obj['expected'], l.obj['received']])).toEqual([
      [WEI_BOOK.source, WEI_BOOK.field, WEI_BOOK.expected, WEI_BOOK.received],
      [MARKETS.source, MARKETS.field, MARKETS.expected, MARKETS.received],
    ]);
    expect(firsts[0]?.msg).toContain('data.bids.0.price');
    const repeats = logger.lines.filter((l) => l.obj['count'] !== undefined);
    expect(repeats.map((l) => l.obj['count'])).toEqual([10]);
    expect(monitor.shapes().map((s) => s.count)).toEqual([12, 1]);
  });

  it('saves one redacted sample per shape under <journal dir>/wire-samples, owner-only', async () => {
    const monitor = createWireDriftMonitor({ logger: recordingLogger(), journalDir: dir, clock: new ManualClock(0) });
    const raw = JSON.stringify({
      channel: 'orderbook',
      data: { bids: [{ price: '63218500000000000000000' }], order_id: ORDER_ID, note: `held ${HELD_KEY}` },
      private_key: 'whatever-was-here',
    });
    monitor.sink(WEI_BOOK, raw);
    monitor.sink(SAME_SHAPE_OTHER_LEVEL, raw);
    await monitor.flush();
    const files = await readdir(join(dir, WIRE_SAMPLES_DIR));
    expect(files).toEqual([sampleFileName(WEI_BOOK, 0)]);
    const path = join(dir, WIRE_SAMPLES_DIR, files[0] ?? '');
    expect(monitor.shapes()[0]?.samplePath).toBe(path);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    const text = await readFile(path, 'utf8');
    expect(text).not.toContain(HELD_KEY.slice(2));
    expect(text).not.toContain('whatever-was-here');
    expect(text).toContain(ORDER_ID);
    expect(JSON.parse(text)).toMatchObject({
      source: 'ws:orderbook',
      field: 'data.bids.0.price',
      raw: { channel: 'orderbook', data: { bids: [{ price: '63218500000000000000000' }] } },
    });
  });

  it('keeps at most maxSamples files', async () => {
    const monitor = createWireDriftMonitor({
      logger: recordingLogger(),
      journalDir: dir,
      clock: new ManualClock(0),
      maxSamples: 2,
    });
    for (let i = 0; i < 5; i++) monitor.sink({ ...MARKETS, field: `data.markets.0.field_${i}` }, '{}');
    await monitor.flush();
    expect(await readdir(join(dir, WIRE_SAMPLES_DIR))).toHaveLength(2);
    expect(monitor.shapes().filter((s) => s.samplePath !== undefined)).toHaveLength(2);
  });

  it('a failing write is logged once and never thrown; counting and logging go on', async () => {
    const logger = recordingLogger();
    const metrics = new BotMetrics();
    const monitor = createWireDriftMonitor({
      logger,
      counter: metrics.wireDecodeFailures,
      journalDir: dir,
      clock: new ManualClock(0),
      files: {
        mkdir: () => Promise.resolve(undefined),
        writeFile: () => Promise.reject(new Error('ENOSPC: no space left on device')),
      },
    });
    expect(() => {
      monitor.sink(WEI_BOOK, '{}');
      monitor.sink(MARKETS, '{}');
    }).not.toThrow();
    await monitor.flush();
    const diskLines = logger.lines.filter((l) => l.msg?.includes('could not save'));
    expect(diskLines).toHaveLength(1);
    expect(diskLines[0]?.obj['err']).toContain('ENOSPC');
    expect(logger.lines.filter((l) => l.obj['field'] !== undefined)).toHaveLength(2);
    expect(monitor.shapes().every((s) => s.samplePath === undefined)).toBe(true);
    expect(await counted(metrics, 'ws:orderbook')).toBe(1);
  });
});
