import { createHash, timingSafeEqual } from 'node:crypto';
import { open } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { PerpbotError } from '../../../core/perpbotError.js';
import { registerSecret } from '../../../core/secretRegistry.js';
import type { ControlConfig } from '../../config/configSchema.js';

const MIN_TOKEN_LENGTH = 16;
const MAX_TOKEN_FILE_BYTES = 4096;

/**
 * The bearer token that guards the kill-switch endpoint: from the environment variable
 * `control.token_env` (default PERPBOT_CONTROL_TOKEN) or, when it is unset, from
 * `control.token_file` (chmod 600, like a key file). Never from the YAML itself. Undefined: no
 * token configured, and the endpoint refuses every request.
 */
export async function loadControlToken(
  control: Pick<ControlConfig, 'token_env' | 'token_file'>,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): Promise<string | undefined> {
  const fromEnv = env[control.token_env]?.trim();
  if (fromEnv !== undefined && fromEnv !== '') return checked(fromEnv, control.token_env);
  if (control.token_file === undefined) return undefined;
  const file = isAbsolute(control.token_file) ? control.token_file : resolve(cwd, control.token_file);
  return checked((await readTokenFile(file)).trim(), `control.token_file ${file}`);
}

/** Constant-time comparison of an `Authorization` header with the token. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (match === null) return false;
  // Hashing first makes both sides the same length, so the comparison leaks nothing about it.
  const digest = (text: string): Buffer => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(match[1] as string), digest(token));
}

function checked(token: string, origin: string): string {
  if (token.length < MIN_TOKEN_LENGTH || /\s/.test(token)) {
    throw new PerpbotError(
      `the control token from ${origin} is too weak: expected at least ${MIN_TOKEN_LENGTH} characters without spaces (value not shown)`,
      {
        code: 'CONTROL_TOKEN',
        hints: ['generate one with: openssl rand -hex 32'],
      },
    );
  }
  registerSecret(token);
  return token;
}

async function readTokenFile(file: string): Promise<string> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (cause) {
    const code = cause instanceof Error && 'code' in cause ? String(cause.code) : 'unreadable';
    throw new PerpbotError(`cannot open the control token file ${file} (${code})`, {
      code: 'CONTROL_TOKEN',
      hints: ['check control.token_file in the config'],
      cause,
    });
  }
  try {
    const stat = await handle.stat();
    if (process.platform !== 'win32' && (stat.mode & 0o077) !== 0) {
      throw new PerpbotError(
        `the control token file ${file} is readable by group or others (mode ${(stat.mode & 0o777).toString(8).padStart(4, '0')})`,
        {
          code: 'CONTROL_TOKEN',
          hints: [`run: chmod 600 ${file}`, 'if others could have read it, generate a new token'],
        },
      );
    }
    if (!stat.isFile() || stat.size > MAX_TOKEN_FILE_BYTES)
      throw new PerpbotError(`the control token file ${file} is not a small regular file`, {
        code: 'CONTROL_TOKEN',
        hints: ['point control.token_file at a file holding the token alone'],
      });
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}
