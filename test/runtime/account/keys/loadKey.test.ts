import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { redactText } from '../../../../src/core/redactor.js';
import { KeyError } from '../../../../src/runtime/account/keys/keyError.js';
import { loadKey } from '../../../../src/runtime/account/keys/loadKey.js';
import { loadVenueKeys } from '../../../../src/runtime/account/keys/loadVenueKeys.js';

// Well-known development keys (Hardhat/Anvil accounts 0 and 1), never funded anywhere real.
const KEY_A = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const ADDRESS_A = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const KEY_B = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const ADDRESS_B = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'perpbot-keys-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function keyFile(name: string, content: string, mode: number): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, content, { mode });
  await chmod(file, mode);
  return file;
}

async function refusal(promise: Promise<unknown>): Promise<KeyError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (error instanceof KeyError) return error;
  throw new Error(`expected a KeyError, got ${String(error)}`);
}

describe('loadKey', () => {
  it('makes the key known to the redactor: from then on no log line, error or answer shows it', async () => {
    const key = '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a'; // Anvil account 2
    expect(redactText(`echoed ${key}`)).toBe(`echoed ${key}`);
    await loadKey({ envVar: 'PERPBOT_SIGNER_KEY', env: { PERPBOT_SIGNER_KEY: key } });
    expect(redactText(`echoed ${key}`)).toBe('echoed [redacted]');
    expect(redactText(`echoed ${key.slice(2).toUpperCase()}`)).toBe('echoed [redacted]');
  });

  it('loads a key from the environment and derives its address', async () => {
    const key = await loadKey({ envVar: 'PERPBOT_ACCOUNT_KEY', env: { PERPBOT_ACCOUNT_KEY: KEY_A } });
    expect(key.address).toBe(ADDRESS_A);
    expect(key.privateKey).toBe(KEY_A);
    expect(key.source).toBe('env');
    expect(key.origin).toBe('PERPBOT_ACCOUNT_KEY');
  });

  it('loads a chmod 600 (or 400) key file when the variable is unset or empty', async () => {
    const file = await keyFile('account.key', `${KEY_B}\n`, 0o600);
    const key = await loadKey({ envVar: 'PERPBOT_ACCOUNT_KEY', file, env: { PERPBOT_ACCOUNT_KEY: '' } });
    expect(key).toMatchObject({ address: ADDRESS_B, source: 'file', origin: file });
    const readOnly = await keyFile('ro.key', KEY_B, 0o400);
    expect((await loadKey({ envVar: 'X', file: readOnly, env: {} })).address).toBe(ADDRESS_B);
  });

  it('prefers the environment over the file', async () => {
    const file = await keyFile('account.key', KEY_B, 0o600);
    const key = await loadKey({ envVar: 'PERPBOT_ACCOUNT_KEY', file, env: { PERPBOT_ACCOUNT_KEY: KEY_A } });
    expect(key.address).toBe(ADDRESS_A);
    expect(key.source).toBe('env');
  });

  it.each([0o640, 0o604, 0o644, 0o660, 0o601])(
    'refuses a key file with mode %s, naming the file and chmod 600',
    async (mode) => {
      const file = await keyFile('open.key', KEY_A, mode);
      const error = await refusal(loadKey({ envVar: 'PERPBOT_SIGNER_KEY', file, env: {} }));
      expect(error.code).toBe('KEY_FILE_PERMISSIONS');
      expect(error.message).toBe(`key file ${file} is readable by group or others (mode 0${mode.toString(8)})`);
      expect(error.hints).toContain(`run: chmod 600 ${file}`);
      expect(error.message).not.toContain(KEY_A.slice(2, 20));
    },
  );

  it('names the variable when there is neither a variable nor a file', async () => {
    const error = await refusal(loadKey({ envVar: 'PERPBOT_SIGNER_KEY', env: {} }));
    expect(error.code).toBe('KEY_MISSING');
    expect(error.message).toContain('PERPBOT_SIGNER_KEY is not set');
  });

  it('names a missing file, a directory, and a malformed file without echoing content', async () => {
    const missing = await refusal(loadKey({ envVar: 'X', file: join(dir, 'none.key'), env: {} }));
    expect(missing.code).toBe('KEY_FILE_UNREADABLE');
    expect(missing.message).toContain('none.key');
    const sub = join(dir, 'sub');
    await mkdir(sub, { mode: 0o700 });
    expect((await refusal(loadKey({ envVar: 'X', file: sub, env: {} }))).code).toBe('KEY_FILE_INVALID');
    const bad = await keyFile('bad.key', KEY_A.slice(2), 0o600);
    const malformed = await refusal(loadKey({ envVar: 'X', file: bad, env: {} }));
    expect(malformed.message).toBe(`key file ${bad} is not a private key: no 0x prefix (64 characters)`);
  });

  it('refuses a malformed key in the environment without echoing it', async () => {
    const error = await refusal(loadKey({ envVar: 'PERPBOT_ACCOUNT_KEY', env: { PERPBOT_ACCOUNT_KEY: `${KEY_A}ff` } }));
    expect(error.message).toBe('PERPBOT_ACCOUNT_KEY is not a private key: 66 hex digits after 0x, expected 64');
  });

  it('keeps the private key out of JSON, inspection and spreads', async () => {
    const key = await loadKey({ envVar: 'PERPBOT_ACCOUNT_KEY', env: { PERPBOT_ACCOUNT_KEY: KEY_A } });
    const secret = KEY_A.slice(2);
    expect(JSON.stringify(key)).not.toContain(secret);
    expect(JSON.stringify(key)).toContain(ADDRESS_A);
    expect(inspect(key, { showHidden: true, depth: 5 })).not.toContain(secret);
    expect(JSON.stringify({ ...key })).not.toContain(secret);
    expect(Object.keys(key)).not.toContain('privateKey');
  });
});

describe('loadVenueKeys', () => {
  it('loads the account and signer keys from their variables or files', async () => {
    const signerFile = await keyFile('signer.key', KEY_B, 0o600);
    const keys = await loadVenueKeys({ signer_key_file: signerFile }, { PERPBOT_ACCOUNT_KEY: KEY_A });
    expect(keys.account.address).toBe(ADDRESS_A);
    expect(keys.signer.address).toBe(ADDRESS_B);
  });

  it('refuses a signer key that is the account key', async () => {
    const error = await refusal(loadVenueKeys({}, { PERPBOT_ACCOUNT_KEY: KEY_A, PERPBOT_SIGNER_KEY: KEY_A }));
    expect(error.code).toBe('KEY_SIGNER_IS_ACCOUNT');
    expect(error.message).not.toContain(KEY_A.slice(2, 20));
  });
});
