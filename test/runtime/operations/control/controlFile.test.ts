import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  controlFileFor,
  readControlFile,
  removeControlFile,
  writeControlFile,
} from '../../../../src/runtime/operations/control/controlFile.js';

const dir = mkdtempSync(join(tmpdir(), 'perpbot-control-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the control record beside the journal', () => {
  it('lives next to the journal file, named after it', () => {
    expect(controlFileFor('/srv/bot/data/journal.sqlite')).toBe('/srv/bot/data/journal.control.json');
    expect(controlFileFor('data/mm')).toBe('data/mm.control.json');
  });

  it('is written whole, read back, and removed only by the process it names', () => {
    const path = controlFileFor(join(dir, 'sub', 'journal.sqlite'));
    const record = { url: 'http://127.0.0.1:4321', pid: 4242, account: '0xabc', startedAt: '2026-11-25T12:00:00.000Z' };
    writeControlFile(path, record);
    expect(readControlFile(path)).toEqual(record);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    removeControlFile(path, 1);
    expect(readControlFile(path)).toEqual(record);
    removeControlFile(path, 4242);
    expect(readControlFile(path)).toBeUndefined();
  });

  it('reads a damaged or foreign file as absent', () => {
    const path = join(dir, 'bad.control.json');
    writeFileSync(path, '{"url": 3');
    expect(readControlFile(path)).toBeUndefined();
    writeFileSync(path, JSON.stringify({ url: 'not a url', pid: 1, account: 'x', startedAt: 'y' }));
    expect(readControlFile(path)).toBeUndefined();
  });
});
