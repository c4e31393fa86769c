import { ConfigError, formatConfigPath } from './configError.js';

/**
 * Config files get committed, copied and pasted into issues; private keys must never be in one.
 * Refuses any field named like a secret and any value shaped like one (a 32-byte hex string, a
 * JWT, a BIP-39 style mnemonic). The error names the path, never the value.
 */
export function refuseSecrets(tree: unknown): void {
  const found = findSecret(tree, []);
  if (found === undefined) return;
  throw ConfigError.at(found.path, `${found.why}; secrets do not belong in config files (value not shown)`, [
    'remove it from the file',
    'give keys through PERPBOT_ACCOUNT_KEY / PERPBOT_SIGNER_KEY, or keys.account_key_file / keys.signer_key_file pointing at a chmod 600 file',
  ]);
}

/** True when a field name says it holds a secret: `*_key`, `private_key`, `mnemonic`, `secret`, credential tokens. */
export function isSecretFieldName(name: string): boolean {
  const snake = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[-\s]+/g, '_')
    .toLowerCase();
  if (snake === 'key') return true;
  // Only token names that mean credentials: `base_token: USDC` is a legitimate strategy param.
  return /(?:_keys?|privkey|secrets?|mnemonic|seed_phrase|passphrase|password|jwt|(?:access|refresh|auth|api|bearer|session)_token)$/.test(
    snake,
  );
}

const HEX_32_BYTES = /(?:^|[^0-9a-fA-F])(?:0x)?[0-9a-fA-F]{64,}(?![0-9a-fA-F])/;
const JWT = /\beyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/;
const MNEMONIC = /^[a-z]+(?: [a-z]+)+$/;
const MNEMONIC_LENGTHS = new Set([12, 15, 18, 21, 24]);

/** Why a value looks like a secret, or undefined. */
export function secretShape(value: string): string | undefined {
  if (HEX_32_BYTES.test(value)) return 'value looks like a private key or signature (32+ bytes of hex)';
  if (JWT.test(value)) return 'value looks like a JWT';
  const trimmed = value.trim();
  if (MNEMONIC.test(trimmed) && MNEMONIC_LENGTHS.has(trimmed.split(' ').length)) return 'value looks like a mnemonic';
  return undefined;
}

function findSecret(value: unknown, path: readonly PropertyKey[]): { path: string; why: string } | undefined {
  if (typeof value === 'string') {
    const why = secretShape(value);
    return why === undefined ? undefined : { path: formatConfigPath(path), why };
  }
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = findSecret(item, [...path, i]);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (isSecretFieldName(key))
        return { path: formatConfigPath([...path, key]), why: `field "${key}" is named like a secret` };
      const found = findSecret(item, [...path, key]);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}
