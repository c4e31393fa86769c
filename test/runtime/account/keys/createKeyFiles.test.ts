import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createKeyFiles } from '../../../../src/runtime/account/keys/createKeyFiles.js';
import { KeyError } from '../../../../src/runtime/account/keys/keyError.js';
import { loadKey } from '../../../../src/runtime/account/keys/loadKey.js';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'perpbot-keygen-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('createKeyFiles', () => {
  it('writes two distinct chmod 600 keys that load back to the returned addresses', async () => {
    const target = join(dir, 'nested', 'keys');
    const created = await createKeyFiles(target);
    expect(created.accountKeyFile).toBe(join(target, 'account.key'));
    expect(created.signerKeyFile).toBe(join(target, 'signer.key'));
    for (const file of [created.accountKeyFile, created.signerKeyFile]) {
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect(await readFile(file, 'utf8')).toMatch(/^0x[0-9a-f]{64}\n$/);
    }
    expect(created.account).not.toBe(created.signer);
    expect((await loadKey({ envVar: 'NONE', file: created.accountKeyFile, env: {} })).address).toBe(created.account);
    expect((await loadKey({ envVar: 'NONE', file: created.signerKeyFile, env: {} })).address).toBe(created.signer);
    expect(JSON.stringify(created)).not.toMatch(/0x[0-9a-fA-F]{64}/);
  });

  it('creates a missing directory private to the owner', async () => {
    const target = join(dir, 'fresh');
    await createKeyFiles(target);
    expect((await stat(target)).mode & 0o077).toBe(0);
  });

  it('refuses to overwrite an existing key file and leaves it untouched', async () => {
    const existing = join(dir, 'signer.key');
    await writeFile(existing, 'keep me', { mode: 0o600 });
    const error = await createKeyFiles(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KeyError);
    expect((error as KeyError).code).toBe('KEY_FILE_EXISTS');
    expect((error as KeyError).message).toBe(`refusing to overwrite existing key file ${existing}`);
    expect(await readFile(existing, 'utf8')).toBe('keep me');
    await expect(stat(join(dir, 'account.key'))).rejects.toThrow(/ENOENT/);
  });
});
