import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ManualClock } from '../../src/core/clock.js';
import type { Journal } from '../../src/journal/journal.js';
import { journalStrategyStorage, MAX_STRATEGY_STATE_BYTES } from '../../src/journal/journalStrategyStorage.js';
import { openJournal } from '../../src/journal/openJournal.js';

const ACCOUNT = '0x00000000000000000000000000000000000000aa';
const cursor = z.object({ lastLevel: z.number().int(), placed: z.array(z.string()) });

describe('journalStrategyStorage', () => {
  let journal: Journal;
  beforeEach(() => {
    journal = openJournal(':memory:');
  });
  afterEach(() => journal.close());

  it('saves and loads typed state per strategy', () => {
    const clock = new ManualClock(1_000);
    const grid = journalStrategyStorage(journal, ACCOUNT, 'grid', clock);
    const other = journalStrategyStorage(journal, ACCOUNT, 'other', clock);
    expect(grid.load('cursor', cursor)).toBeUndefined();
    grid.save('cursor', { lastLevel: 3, placed: ['a'] });
    expect(grid.load('cursor', cursor)).toEqual({ lastLevel: 3, placed: ['a'] });
    expect(other.load('cursor', cursor)).toBeUndefined();
    grid.delete('cursor');
    expect(grid.load('cursor', cursor)).toBeUndefined();
  });

  it('refuses a saved value its schema refuses, naming the path but not the value', () => {
    const storage = journalStrategyStorage(journal, ACCOUNT, 'grid', new ManualClock(0));
    storage.save('cursor', { lastLevel: 'secret-ish', placed: [] });
    expect(() => storage.load('cursor', cursor)).toThrow(
      expect.objectContaining({
        code: 'STRATEGY_STATE_INVALID',
        details: expect.objectContaining({ issues: [expect.stringMatching(/^lastLevel:/)] }),
      }),
    );
  });

  it('refuses values that are not JSON or too large', () => {
    const storage = journalStrategyStorage(journal, ACCOUNT, 'grid', new ManualClock(0));
    expect(() => storage.save('f', () => 1)).toThrow(expect.objectContaining({ code: 'STRATEGY_STATE_INVALID' }));
    expect(() => storage.save('big', 'x'.repeat(MAX_STRATEGY_STATE_BYTES))).toThrow(
      expect.objectContaining({ code: 'STRATEGY_STATE_TOO_LARGE' }),
    );
  });
});
