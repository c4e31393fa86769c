import { lstat, mkdir, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Address } from 'viem';
import { addressOfPrivateKey, newPrivateKey } from '../../../protocol/privateKeys.js';
import { registerSecret } from '../../../core/secretRegistry.js';
import { KeyError } from './keyError.js';

export const ACCOUNT_KEY_FILE = 'account.key';
export const SIGNER_KEY_FILE = 'signer.key';

export interface CreatedKeyFiles {
  readonly account: Address;
  readonly signer: Address;
  readonly accountKeyFile: string;
  readonly signerKeyFile: string;
}

/**
 * Generates a fresh account key and signer key into `dir` (created 0700 if missing) as
 * `account.key` and `signer.key`, mode 0600. Never overwrites: an existing key file may be the
 * only copy of a funded wallet. Returns the addresses and paths, never the keys.
 */
export async function createKeyFiles(dir: string): Promise<CreatedKeyFiles> {
  const accountKeyFile = join(dir, ACCOUNT_KEY_FILE);
  const signerKeyFile = join(dir, SIGNER_KEY_FILE);
  for (const file of [accountKeyFile, signerKeyFile]) {
    if (await exists(file)) {
      throw new KeyError(
        file,
        `refusing to overwrite existing key file ${file}`,
        ['choose another directory, or move the old files away after making sure their funds are safe'],
        'KEY_FILE_EXISTS',
      );
    }
  }
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const account = await writeNewKey(accountKeyFile);
  let signer: Address;
  try {
    signer = await writeNewKey(signerKeyFile);
  } catch (error) {
    // Leave nothing half-made: a lone account key would make the next attempt refuse.
    await unlink(accountKeyFile).catch(() => undefined);
    throw error;
  }
  return { account, signer, accountKeyFile, signerKeyFile };
}

async function writeNewKey(file: string): Promise<Address> {
  const privateKey = newPrivateKey();
  registerSecret(privateKey);
  try {
    // 'wx' fails if the file appeared since the check; the mode applies at creation.
    await writeFile(file, `${privateKey}\n`, { mode: 0o600, flag: 'wx' });
  } catch (cause) {
    const code = cause instanceof Error && 'code' in cause ? String(cause.code) : 'error';
    throw new KeyError(
      file,
      `cannot create key file ${file} (${code})`,
      ['check that the directory is writable and the file does not exist'],
      code === 'EEXIST' ? 'KEY_FILE_EXISTS' : 'KEY_FILE_UNWRITABLE',
      cause,
    );
  }
  return addressOfPrivateKey(privateKey);
}

async function exists(file: string): Promise<boolean> {
  try {
    await lstat(file);
    return true;
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return false;
    throw error;
  }
}
