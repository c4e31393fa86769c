import { gunzip, inflate, inflateRaw } from 'node:zlib';

/**
 * An HTTP answer's body as text, as fetch's `text()` gives it: content codings undone (gzip and
 * deflate, the ones the client asks for), UTF-8 decoded, a leading byte-order mark dropped.
 */

/** Content codings undone in reverse order of application, as fetch does; unknown ones are left as they are. */
export async function decodeBody(body: Buffer, codings: string): Promise<Buffer> {
  let bytes = body;
  for (const coding of codings
    .split(',')
    .map((c) => c.trim())
    .reverse()) {
    if (coding === 'gzip' || coding === 'x-gzip') bytes = await zlibStep(gunzip, bytes);
    else if (coding === 'deflate') bytes = await zlibStep(inflate, bytes).catch(() => zlibStep(inflateRaw, bytes));
    else if (coding !== 'identity' && coding !== '') return bytes;
  }
  return bytes;
}

function zlibStep(step: typeof gunzip, bytes: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => step(bytes, (error, out) => (error === null ? resolve(out) : reject(error))));
}

/** UTF-8, a leading byte-order mark dropped (as fetch's `text()`). */
export function utf8(bytes: Buffer): string {
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
