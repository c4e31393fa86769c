import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendPrivateFileSync, writePrivateFile, writePrivateFileSync } from '../../src/core/privateFiles.js';

describe('private files', () => {
  let dir: string;
  let victim: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'perpbot-private-'));
    victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'untouched\n', { mode: 0o644 });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes 0600 files in a 0700 directory it makes, whole, leaving no temporary behind', async () => {
    const path = join(dir, 'out', 'deep', 'report.json');
    await writePrivateFile(path, '{"ok":true}\n');
    writePrivateFileSync(join(dir, 'out', 'holder.json'), '{}\n');
    expect(readFileSync(path, 'utf8')).toBe('{"ok":true}\n');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'out', 'holder.json')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'out')).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'out', 'deep')).mode & 0o777).toBe(0o700);
    expect(readdirSync(join(dir, 'out', 'deep'))).toEqual(['report.json']);
  });

  it('replaces a symlink planted at the target instead of writing where it points', async () => {
    const path = join(dir, 'report.json');
    symlinkSync(victim, path);
    await writePrivateFile(path, 'mine\n');
    expect(lstatSync(path).isSymbolicLink()).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe('mine\n');
    expect(readFileSync(victim, 'utf8')).toBe('untouched\n');
  });

  it('refuses to append through a symlink planted at the path', () => {
    const path = join(dir, 'journal.sqlite.fallback.jsonl');
    symlinkSync(victim, path);
    expect(() => appendPrivateFileSync(path, 'record\n')).toThrow(/ELOOP/);
    expect(readFileSync(victim, 'utf8')).toBe('untouched\n');
    mkdirSync(join(dir, 'real'));
    const real = join(dir, 'real', 'fallback.jsonl');
    appendPrivateFileSync(real, 'one\n');
    appendPrivateFileSync(real, 'two\n');
    expect(readFileSync(real, 'utf8')).toBe('one\ntwo\n');
    expect(statSync(real).mode & 0o777).toBe(0o600);
  });
});
