import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BotProcess } from '../../../../src/runtime/diagnostics/chaos/botProcess.js';

const dir = mkdtempSync(join(tmpdir(), 'perpbot-bot-process-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Linux's always-full device; a machine without it cannot play the full disk. */
const FULL_DEVICE = (() => {
  try {
    return statSync('/dev/full').isCharacterDevice();
  } catch {
    return false;
  }
})();

describe('BotProcess', () => {
  it.runIf(FULL_DEVICE)(
    'says once that its log cannot be written (a full disk), and still reads the bot to its exit',
    async () => {
      const uncaught: unknown[] = [];
      const listener = (error: unknown): number => uncaught.push(error);
      process.on('uncaughtException', listener);
      try {
        const bot = new BotProcess({
          run: 1,
          configPath: join(dir, 'missing.yaml'),
          cwd: dir,
          env: { PATH: process.env['PATH'] ?? '' },
          // Every write to /dev/full fails with ENOSPC, as a log on a full disk does.
          logPath: '/dev/full',
          now: Date.now,
          onEvent: () => undefined,
        });
        expect(await bot.ready).toBe(false);
        const exit = await bot.exited;
        expect(exit.code).toBe(1);
        const tail = bot.stderrTail();
        expect(tail).toContain("the bot's log /dev/full could not be written (ENOSPC");
        expect(tail.match(/could not be written/g)).toHaveLength(1);
        // The bot's own words still reach the tail the chaos report prints.
        expect(tail).toContain('missing.yaml');
        expect(uncaught).toEqual([]);
      } finally {
        process.off('uncaughtException', listener);
      }
    },
    30_000,
  );
});
