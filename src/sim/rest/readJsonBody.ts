import type { IncomingMessage } from 'node:http';
import { SimRefusal } from '../simRefusal.js';

export type BodyResult = { ok: true; value: unknown } | { ok: false; error: SimRefusal };

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** Reads at most `limit` bytes; an oversized, non-UTF-8 or non-JSON-object body is refused. */
export function readJsonBody(req: IncomingMessage, limit: number): Promise<BodyResult> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('error', () =>
      resolve({ ok: false, error: new SimRefusal(400, 'InvalidArgument', 'request body could not be read') }),
    );
    req.on('end', () => resolve(tooLarge ? tooLargeBody(limit) : parseJsonBody(joined(chunks), limit)));
  });
}

/** A body is mostly one chunk: taken as it is, not copied by `Buffer.concat`. */
function joined(chunks: readonly Buffer[]): Buffer {
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
}

function tooLargeBody(limit: number): BodyResult {
  return { ok: false, error: new SimRefusal(413, 'InvalidArgument', `request body exceeds ${limit} bytes`) };
}

/** A whole body's bytes as the server takes them: at most `limit`, strict UTF-8, a JSON object. */
export function parseJsonBody(bytes: Buffer, limit: number): BodyResult {
  if (bytes.length > limit) return tooLargeBody(limit);
  // Fatal decoding: invalid UTF-8 is refused, not silently turned into U+FFFD and acted on.
  let text: string;
  try {
    text = STRICT_UTF8.decode(bytes);
  } catch {
    return { ok: false, error: new SimRefusal(400, 'InvalidArgument', 'request body is not valid UTF-8') };
  }
  return parseJsonText(text);
}

/**
 * A body already held as text, as a caller in the same process sends it: the answer of
 * `parseJsonBody` for its UTF-8 bytes, without encoding and strictly decoding them again when
 * that trip would change nothing (no surrogate, whose lone half would become U+FFFD, and no
 * leading byte order mark, which decoding drops). `limit` counts the UTF-8 bytes, never fewer than
 * the UTF-16 units.
 */
export function parseJsonBodyText(text: string, limit: number): BodyResult {
  if (text.length > limit) return tooLargeBody(limit);
  if (text.charCodeAt(0) === BYTE_ORDER_MARK || SURROGATE.test(text)) return parseJsonBody(Buffer.from(text), limit);
  if (Buffer.byteLength(text, 'utf8') > limit) return tooLargeBody(limit);
  return parseJsonText(text);
}

const BYTE_ORDER_MARK = 0xfeff;
const SURROGATE = /[\uD800-\uDFFF]/;

function parseJsonText(text: string): BodyResult {
  if (text.trim() === '')
    return {
      ok: false,
      error: new SimRefusal(400, 'InvalidArgument', 'request body is empty: expected a JSON object'),
    };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: new SimRefusal(400, 'InvalidArgument', 'request body is not valid JSON') };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const got = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
    return {
      ok: false,
      error: new SimRefusal(400, 'InvalidArgument', `request body must be a JSON object, got ${got}`),
    };
  }
  return { ok: true, value };
}
