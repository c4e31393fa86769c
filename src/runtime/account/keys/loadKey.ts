import { open } from 'node:fs/promises';
import { addressOfPrivateKey } from '../../../protocol/privateKeys.js';
import { registerSecret } from '../../../core/secretRegistry.js';
import { KeyError } from './keyError.js';
import { LoadedKey } from './loadedKey.js';
import { parsePrivateKey } from './parsePrivateKey.js';

export interface LoadKeyOptions {
  /** e.g. PERPBOT_ACCOUNT_KEY; when set and non-empty it wins over the file. */
  readonly envVar: string;
  /** A key file (0x hex, chmod 600), used when the variable is unset. */
  readonly file?: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
}

// A key file is a single line; anything larger is the wrong file.
const MAX_KEY_FILE_BYTES = 1024;

/**
 * Loads one private key from the environment or a key file and derives its address. A key file
 * that group or others can read is refused: the key may already be exposed, and a bot should not
 * run on it silently.
 */
export async function loadKey(options: LoadKeyOptions): Promise<LoadedKey> {
  const fromEnv = options.env[options.envVar];
  if (fromEnv !== undefined && fromEnv.trim() !== '') {
    // Before parsing: even a malformed key (a typo of the real one) must not reach a log or error.
    registerSecret(fromEnv);
    return withAddress(parsePrivateKey(fromEnv, options.envVar), 'env', options.envVar);
  }
  if (options.file === undefined) {
    throw new KeyError(
      options.envVar,
      `no key: ${options.envVar} is not set and no key file is configured`,
      [`export ${options.envVar}=0x... or set the key file path in the config (keys section)`],
      'KEY_MISSING',
    );
  }
  const text = await readKeyFile(options.file);
  registerSecret(text);
  return withAddress(parsePrivateKey(text, `key file ${options.file}`), 'file', options.file);
}

async function readKeyFile(file: string): Promise<string> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (cause) {
    const code = cause instanceof Error && 'code' in cause ? String(cause.code) : 'unreadable';
    throw new KeyError(
      file,
      `cannot open key file ${file} (${code})`,
      ['check keys.*_key_file in the config, or create the files with the CLI key command'],
      'KEY_FILE_UNREADABLE',
      cause,
    );
  }
  try {
    // Checked on the open handle, so the file cannot be swapped between the check and the read.
    const stat = await handle.stat();
    if (!stat.isFile())
      throw new KeyError(
        file,
        `key file ${file} is not a regular file`,
        ['point the config at the key file itself'],
        'KEY_FILE_INVALID',
      );
    if (process.platform !== 'win32' && (stat.mode & 0o077) !== 0) {
      const mode = (stat.mode & 0o777).toString(8).padStart(4, '0');
      throw new KeyError(
        file,
        `key file ${file} is readable by group or others (mode ${mode})`,
        [`run: chmod 600 ${file}`, 'if others could have read it, move funds and generate new keys'],
        'KEY_FILE_PERMISSIONS',
      );
    }
    if (stat.size > MAX_KEY_FILE_BYTES)
      throw new KeyError(
        file,
        `key file ${file} is ${stat.size} bytes; a key file holds one 0x hex key`,
        ['check the path'],
        'KEY_FILE_INVALID',
      );
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

function withAddress(privateKey: `0x${string}`, source: 'env' | 'file', origin: string): LoadedKey {
  return new LoadedKey(privateKey, addressOfPrivateKey(privateKey), source, origin);
}
