/**
 * Field names whose values are secrets wherever they appear in a logged object: private keys,
 * signatures (a signed permit with an unused nonce can be submitted by whoever sees it), JWTs and
 * HTTP credentials.
 */
export const SECRET_LOG_KEYS = [
  'privateKey',
  'private_key',
  'accountKey',
  'account_key',
  'signerKey',
  'signer_key',
  'secret',
  'mnemonic',
  'signature',
  'account_signature',
  'signer_signature',
  'accountSignature',
  'signerSignature',
  'access_token',
  'refresh_token',
  'accessToken',
  'refreshToken',
  'token',
  'jwt',
  'authorization',
  'Authorization',
  'cookie',
  'password',
] as const;

const NORMALIZED = new Set(SECRET_LOG_KEYS.map(normalize));

function normalize(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** True for any spelling of a secret field name (`privateKey`, `PRIVATE-KEY`, `permitSignature`). */
export function isSecretLogKey(name: string): boolean {
  const n = normalize(name);
  return (
    NORMALIZED.has(n) || n.endsWith('signature') || n.endsWith('privatekey') || n === 'setcookie' || n === 'apikey'
  );
}

/**
 * pino `redact` paths: every secret key at the top level and one level down, plus the deeper
 * wire shapes we log (a request whose body carries a permit). Wildcard paths cost time on every
 * line (three levels of wildcards made a line ~20x slower), so deeper fields are left to the
 * log formatter, which scrubs secret names at any depth.
 */
export function secretRedactionPaths(): string[] {
  const paths = SECRET_LOG_KEYS.flatMap((key) => [key, `*.${key}`]);
  paths.push(
    'permit.signature',
    'permit_params.signature',
    '*.permit.signature',
    '*.permit_params.signature',
    'headers.authorization',
    'headers.Authorization',
    '*.headers.authorization',
    '*.headers.Authorization',
    'headers["set-cookie"]',
  );
  return paths;
}
