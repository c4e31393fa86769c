import { truncateSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { until } from './support/journalBot.js';
import { spawnedProbeBot, type SpawnedProbeBot } from './support/spawnedProbeBot.js';
import type { RunningPerpbot } from './support/spawnPerpbot.js';

describe('a journal truncated under a running bot (perpbot start spawned)', () => {
  let probe: SpawnedProbeBot;
  let bot: RunningPerpbot | undefined;
  beforeEach(async () => {
    probe = await spawnedProbeBot('journal-truncated', '{ open_orders: cancel }');
  });
  afterEach(() => probe.close());

  it('is noticed by the once-a-second watch, stops opening, and still cancels on stop', async () => {
    const open = () => probe.openOrders();
    bot = probe.start();
    await until(async () => (await open()) === 2, 60_000);
    const before = bot.output().length;
    truncateSync(probe.journal, 100);
    const cutAt = Date.now();
    await until(() => (bot?.output() ?? '').slice(before).includes('journal cannot be written'), 10_000);
    // The watch runs every second; the rest is the child's scheduling on a busy machine.
    expect(Date.now() - cutAt).toBeLessThan(5_000);
    const after = bot.output().slice(before);
    expect(after).toContain('the journal file was truncated (100 bytes');
    expect(after).toContain('restore it from a backup, or move it aside and start again');
    expect(after).not.toContain('--rebuild');
    await until(() => /JOURNAL_DOWN|journal unwritable/.test(bot?.output().slice(before) ?? ''), 10_000);

    bot.child.kill('SIGTERM');
    // Stopped in order, but records of the run never reached the journal: not a success.
    expect(await bot.exited).toBe(1);
    expect(bot.output()).toMatch(/perpbot: the journal .* lacks \d+ record\(s\) of this run/);
    expect(await open()).toBe(0);
    expect(bot.output()).toContain('left on the venue at exit: nothing (no open orders, no positions)');
  }, 120_000);
});
