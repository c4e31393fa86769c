/**
 * Field names whose values are secrets wherever they appear in an object the process logs or
 * answers with: private keys, signatures (a signed permit with an unused nonce can be submitted by
 * whoever sees it), JWTs, bearer tokens and HTTP credentials. Redacting by name needs no knowledge
 * of the value, so it also covers secrets the process never registered (a request body's permit).
 */
export const SECRET_FIELD_NAMES = [
  'privateKey',
  'private_key',
  'accountKey',
  'account_key',
  'signerKey',
  'signer_key',
  'secret',
  'secrets',
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
  'bearer',
  'control_token',
  'controlToken',
  'authorization',
  'Authorization',
  'cookie',
  'password',
] as const;

const NORMALIZED = new Set<string>(SECRET_FIELD_NAMES.map(normalize));

function normalize(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** True for any spelling of a secret field name (`privateKey`, `PRIVATE-KEY`, `permitSignature`). */
export function isSecretFieldName(name: string): boolean {
  const n = normalize(name);
  return (
    NORMALIZED.has(n) || n.endsWith('signature') || n.endsWith('privatekey') || n === 'setcookie' || n === 'apikey'
  );
}
