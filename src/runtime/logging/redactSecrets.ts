import { isSecretLogKey } from './secretLogKeys.js';

export const REDACTED = '[redacted]';

// Hashes and venue order ids are public (the on-chain trail of every action and what support
// asks for); keep them readable in logs.
const PUBLIC_HASH_KEYS = new Set([
  'hash',
  'digest',
  'txhash',
  'transactionhash',
  'blockhash',
  'actionhash',
  'orderid',
  'makerorderid',
  'takerorderid',
]);
const AFTER_PUBLIC_HASH_KEY =
  /(?:hash|digest|tx_hash|txHash|transaction_hash|transactionHash|block_hash|blockHash|action_hash|actionHash|order_id|orderId|maker_order_id|makerOrderId|taker_order_id|takerOrderId)\\?"\s*:\s*\\?"$/;

// 32 bytes or more of hex, with or without 0x: private keys, signatures (65 bytes), calldata.
const HEX_SECRET = /(?<![0-9a-fA-F])(?<!0x)(?:0x)?[0-9a-fA-F]{64,}(?![0-9a-fA-F])/g;
const JWT = /eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;
const BEARER = /(Bearer\s+)[A-Za-z0-9._~+/-]+=*/gi;
// A 64- or 65-byte signature in base64 (the permit encoding) is 88 characters ending in padding.
const BASE64_SIGNATURE = /(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{86}(?:[A-Za-z0-9+/]=|==)(?![A-Za-z0-9+/=])/g;

/**
 * Scrubs secret-shaped text: 32+ byte hex strings (not under a hash key), JWTs, bearer
 * credentials and base64 signatures. Safe on a JSON line: the replacement needs no escaping.
 */
export function redactSecretsInText(text: string): string {
  return text
    .replace(BEARER, `$1${REDACTED}`)
    .replace(JWT, REDACTED)
    .replace(HEX_SECRET, (match: string, offset: number, whole: string) =>
      isPublicHash(match, whole.slice(Math.max(0, offset - 40), offset)) ? match : REDACTED,
    )
    .replace(BASE64_SIGNATURE, REDACTED);
}

/** A 0x + 64-hex value directly under a hash-named JSON key, e.g. `"tx_hash":"0x…"`. */
function isPublicHash(match: string, before: string): boolean {
  return match.length === 66 && match.startsWith('0x') && AFTER_PUBLIC_HASH_KEY.test(before);
}

const MAX_DEPTH = 12;

/**
 * A deep copy of `value` fit for a log: fields named like secrets are replaced, every string is
 * scrubbed by `redactSecretsInText`, and errors become plain objects (type, message, stack, code,
 * cause, own fields) so nested errors keep their text instead of serialising as `{}`. Redaction
 * paths only catch the shapes someone thought of; this catches a key pasted into a message.
 */
export function redactSecrets(value: unknown): unknown {
  return scrub(value, undefined, 0, new WeakSet());
}

function scrub(value: unknown, key: string | undefined, depth: number, seen: WeakSet<object>): unknown {
  if (typeof value === 'string') {
    if (
      key !== undefined &&
      PUBLIC_HASH_KEYS.has(key.toLowerCase().replace(/[^a-z0-9]/g, '')) &&
      /^0x[0-9a-fA-F]{64}$/.test(value)
    )
      return value;
    return redactSecretsInText(value);
  }
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return '[circular]';
  if (!(value instanceof Error) && hasToJson(value)) {
    // As JSON serialisation would (Date, LoadedKey, PerpbotError's shape).
    return scrub(value.toJSON(), key, depth + 1, seen);
  }
  if (depth >= MAX_DEPTH) return '[too deep]';
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => scrub(item, undefined, depth + 1, seen));
    const source: Record<string, unknown> = value instanceof Error ? errorFields(value) : { ...value };
    const out: Record<string, unknown> = {};
    for (const [name, item] of Object.entries(source)) {
      out[name] =
        isSecretLogKey(name) && item !== undefined && item !== null && item !== ''
          ? REDACTED
          : scrub(item, name, depth + 1, seen);
    }
    return out;
  } finally {
    seen.delete(value);
  }
}

function errorFields(error: Error): Record<string, unknown> {
  const fields: Record<string, unknown> = { type: error.name, message: error.message, stack: error.stack };
  // Own enumerable fields (code, details, hints of a PerpbotError) and the native cause chain.
  for (const [name, item] of Object.entries(error)) if (!(name in fields)) fields[name] = item;
  if (error.cause !== undefined) fields['cause'] = error.cause;
  return fields;
}

function hasToJson(value: object): value is { toJSON: () => unknown } {
  return 'toJSON' in value && typeof value.toJSON === 'function';
}
