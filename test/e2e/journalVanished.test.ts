import { existsSync, readFileSync, rmSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { until } from './support/journalBot.js';
import { spawnedProbeBot, type SpawnedProbeBot } from './support/spawnedProbeBot.js';
import type { RunningPerpbot } from './support/spawnPerpbot.js';

describe('a journal removed under a running bot (perpbot start spawned)', () => {
  let probe: SpawnedProbeBot;
  let bot: RunningPerpbot | undefined;
  beforeEach(async () => {
    probe = await spawnedProbeBot('journal-vanished', '{ open_orders: cancel }');
  });
  afterEach(() => probe.close());

  it('is noticed within a second, stops opening, still cancels on stop, and keeps every record it could not journal', async () => {
    const { journal } = probe;
    const open = () => probe.openOrders();
    bot = probe.start();
    await until(async () => (await open()) === 2, 60_000);
    for (const file of [journal, `${journal}-wal`, `${journal}-shm`]) rmSync(file, { force: true });
    const removedAt = Date.now();
    await until(() => (bot?.output() ?? '').includes('journal cannot be written'), 10_000);
    // Noticed by the once-a-second watch (plus the child's scheduling on a busy machine).
    expect(Date.now() - removedAt).toBeLessThan(5_000);
    expect(bot.output()).toContain('the journal file was removed');
    await until(
      () => (bot?.output() ?? '').includes('JOURNAL_DOWN') || (bot?.output() ?? '').includes('journal unwritable'),
      10_000,
    );

    bot.child.kill('SIGTERM');
    // Stopped in order, but records of the run never reached the journal: not a success.
    expect(await bot.exited).toBe(1);
    expect(bot.output()).toMatch(/perpbot: the journal .* lacks \d+ record\(s\) of this run .* in .*fallback\.jsonl/);
    expect(bot.output()).toContain('run `perpbot reconcile` with the same config');
    expect(await open()).toBe(0);
    const fallback = readFileSync(`${journal}.fallback.jsonl`, 'utf8').trim().split('\n');
    const hooks = fallback.map((line) => (JSON.parse(line) as { hook: string }).hook);
    // The shutdown's cancels, each from its intent to its outcome.
    expect(hooks).toContain('requestSent');
    expect(hooks).toContain('outcome');
    expect(bot.output()).toContain('the journal could not be written to the end');
    expect(bot.output()).toContain('left on the venue at exit: nothing (no open orders, no positions)');
    expect(existsSync(journal)).toBe(false);
  }, 120_000);
});
