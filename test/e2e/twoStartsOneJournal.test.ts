import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addDecimals, compareDecimals, negateDecimal } from '../../src/core/decimal.js';
import type { JournalFill } from '../../src/journal/journalRows.js';
import { openJournal } from '../../src/journal/openJournal.js';
import { createRestClient } from '../../src/venue/rest/restClient.js';
import { isFlatPosition } from '../../src/venue/schemas/restAccount.js';
import { startPerpbotIn, type RunningPerpbot } from './support/spawnPerpbot.js';

const ORDERS = 5;

/** `npm start`'s profile on its embedded simulator, trading with the fill-counting taker; the journal relative to the directory. */
const CONFIG = [
  'venue: { profile: sim }',
  'engine:',
  '  registration_retry: { attempts: 30, base_ms: 50 }',
  'risk:',
  '  max_order_notional: "1000"',
  '  max_position_per_market: "5000"',
  '  max_open_orders: 20',
  '  max_actions_per_second: 5',
  '  kill_switch: { max_loss: "500" }',
  'strategies:',
  '  - name: taker',
  '    module: strategies/fillCountingTaker.ts',
  '    markets: [1]',
  `    params: { orders: ${ORDERS}, size: "0.001", settle_marks: 8 }`,
  'logging: { level: info, pretty: false }',
  'shutdown: { when_all_done: idle }',
  'journal: { path: data/journal.sqlite }',
  'sim: { block_ms: 100, registration_lag_ms: 300, port: 0 }',
  '',
].join('\n');

interface LogLine {
  readonly msg: string;
  readonly [key: string]: unknown;
}

/** What one run showed: its account, the venue's fills and position read before it stopped, and what the strategy saw. */
interface RunRecord {
  readonly account: string;
  readonly venueFills: readonly { readonly id: string; readonly side: string; readonly size: string }[];
  /** The venue's position in market 1, signed ("0" flat). */
  readonly venuePosition: string;
  readonly heardFillIds: readonly string[];
  /** The positions the strategy saw, signed, each differing from the one before (from flat). */
  readonly positionsSeen: readonly string[];
}

function logLines(output: string): LogLine[] {
  return output
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as LogLine);
}

const signed = (side: unknown, size: unknown): string =>
  side === 'sell' || side === 'SELL' ? negateDecimal(String(size)) : String(size);

/** Each value that differs from the one before, starting from flat (a stream may repeat a value). */
function changes(values: readonly string[]): string[] {
  return values.filter((v, i) => compareDecimals(v, i === 0 ? '0' : values[i - 1]!) !== 0);
}

/**
 * Every position the strategy saw is one the journaled fills reached, in order, and it saw the
 * position after each order's fills (an order may fill in several fills, which the venue reports
 * as one position change). Returns where the fills end.
 */
function expectPositionsFollowFills(journaled: readonly JournalFill[], seenPositions: readonly string[]): string {
  const steps: { position: string; orderEnd: boolean }[] = [];
  let position = '0';
  journaled.forEach((fill, i) => {
    position = addDecimals(position, signed(fill.side, fill.size));
    steps.push({ position, orderEnd: journaled[i + 1]?.orderId !== fill.orderId });
  });
  let at = 0;
  for (const seen of seenPositions) {
    while (at < steps.length && compareDecimals(steps[at]!.position, seen) !== 0) {
      expect(steps[at]!.orderEnd, `the position after fill ${at} (${steps[at]!.position}) was not seen`).toBe(false);
      at += 1;
    }
    expect(at, `position ${seen} seen but no journaled fill reached it`).toBeLessThan(steps.length);
    at += 1;
  }
  expect(at, 'the position after the last fill was not seen').toBe(steps.length);
  return position;
}

async function waitForLine(cli: RunningPerpbot, msg: string, timeoutMs: number): Promise<LogLine> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const line = logLines(cli.output()).find((l) => l.msg === msg);
    if (line !== undefined) return line;
    if (cli.child.exitCode !== null || Date.now() > deadline)
      throw new Error(`no "${msg}" log line; the run's output:\n${cli.output().slice(-4000)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * One `perpbot start` in `dir`, as `npm start` runs it: until the strategy is done (the bot then
 * idles), the venue read through the embedded simulator's own REST address, then SIGINT.
 */
async function startOnce(dir: string, running: RunningPerpbot[]): Promise<RunRecord> {
  const cli = startPerpbotIn(['start', '--config', 'perpbot.yaml'], dir, {});
  running.push(cli);
  await waitForLine(cli, 'strategy done', 60_000);
  const rest = createRestClient({
    baseUrl: String((await waitForLine(cli, 'embedded simulator started', 0)).rest),
    timeoutMs: 5_000,
  });
  const account = String((await waitForLine(cli, 'bot running', 0)).account);
  const trades = (await rest.tradeHistory({ account, limit: 1000 })).trades;
  const position = await rest.position({ account, market_id: '1' });
  cli.child.kill('SIGINT');
  expect(await cli.exited).toBe(0);
  const lines = logLines(cli.output());
  return {
    account: account.toLowerCase(),
    venueFills: trades.map((t) => ({ id: t.id, side: String(t.side).toLowerCase(), size: t.size })),
    venuePosition: isFlatPosition(position) ? '0' : signed(position.side, position.size),
    heardFillIds: lines.filter((l) => l.msg === 'fill heard').map((l) => String(l['fillId'])),
    positionsSeen: changes(lines.filter((l) => l.msg === 'position seen').map((l) => signed(l['side'], l['size']))),
  };
}

describe('two npm start runs in one directory (the CLI spawned, embedded simulator each time)', () => {
  let dir: string;
  const running: RunningPerpbot[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'perpbot-two-starts-'));
    mkdirSync(join(dir, 'strategies'));
    const target = new URL('./support/fillCountingTaker.ts', import.meta.url).pathname;
    writeFileSync(
      join(dir, 'strategies', 'fillCountingTaker.ts'),
      `export { default } from ${JSON.stringify(target)};\n`,
    );
    writeFileSync(join(dir, 'perpbot.yaml'), CONFIG);
  });
  afterEach(async () => {
    for (const cli of running.splice(0)) {
      if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
      await cli.exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('journals, in both runs, every venue fill of the run under its own id, each heard by the strategy and moving the position', async () => {
    const runs = [await startOnce(dir, running), await startOnce(dir, running)];
    const [first, second] = runs as [RunRecord, RunRecord];
    expect(first.account).not.toBe(second.account);
    // The simulators of the two runs handed out different fill ids (not 1, 2, 3… each time).
    expect(second.venueFills.filter((f) => first.venueFills.some((g) => g.id === f.id))).toEqual([]);

    const journal = openJournal(join(dir, 'data', 'journal.sqlite'), { readonly: true });
    try {
      for (const run of runs) {
        expect(run.venueFills.length).toBeGreaterThan(0);
        const journaled = journal.recentFills(1000, run.account).reverse();
        const venueIds = run.venueFills.map((f) => f.id).sort();
        // Fills journaled = venue fills, id for id, once each.
        expect(journaled.map((f) => f.fillId).sort()).toEqual(venueIds);
        expect(journaled.every((f) => f.source === 'venue' && f.strategy === 'taker')).toBe(true);
        // The strategy heard each of them.
        expect([...run.heardFillIds].sort()).toEqual(venueIds);
        // Position changes: what the strategy saw follows the journaled fills, up to the venue's position.
        const position = expectPositionsFollowFills(journaled, run.positionsSeen);
        expect(compareDecimals(position, run.venuePosition)).toBe(0);
      }
    } finally {
      journal.close();
    }
  }, 150_000);
});
