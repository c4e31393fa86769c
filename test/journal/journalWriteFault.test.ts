import { chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JOURNAL_FAULT_FILE_ENV, journalWriteFault } from '../../src/journal/journalWriteFault.js';

describe('the full-disk drill', () => {
  let dir: string;
  let path: string;
  const warnings: { fields: object; msg: string }[] = [];
  const log = { warn: (fields: object, msg: string) => warnings.push({ fields, msg }) };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'perpbot-drill-'));
    path = join(dir, 'disk-full');
    warnings.length = 0;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is off and silent when unset', () => {
    expect(journalWriteFault({}, log)).toBeUndefined();
    expect(warnings).toEqual([]);
  });

  it('says at warn that it is armed, and fails writes while its own switch file exists', () => {
    const fault = journalWriteFault({ [JOURNAL_FAULT_FILE_ENV]: path }, log);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.msg).toMatch(/^full-disk drill armed: while .*disk-full exists/);
    expect(fault?.()).toBeUndefined();
    writeFileSync(path, 'drill');
    expect(fault?.()).toBe(`${JOURNAL_FAULT_FILE_ENV} ${path} exists`);
    rmSync(path);
    expect(fault?.()).toBeUndefined();
  });

  it.runIf(process.getuid?.() === 0)(
    'ignores a switch file another user put there (a shared or world-writable directory)',
    () => {
      const fault = journalWriteFault({ [JOURNAL_FAULT_FILE_ENV]: path }, log);
      writeFileSync(path, 'not the operator');
      chownSync(path, 65534, 65534);
      expect(fault?.()).toBeUndefined();
      chownSync(path, 0, 0);
      expect(fault?.()).toBeDefined();
    },
  );
});
