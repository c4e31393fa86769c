import type { Duplex } from 'node:stream';
import { SimRefusal } from '../simRefusal.js';
import { answerText, JSON_TYPE } from './answerText.js';
import { errorResponse } from './simRestServer.js';

/**
 * A request Node's HTTP parser refuses before any route sees it is answered as every refusal is,
 * with the venue's JSON error envelope: 431 for a request line and headers over the server's limit
 * (16 KiB: a query string of a few thousand escaped characters is enough), 400 for the rest. The
 * connection then closes: the parser can no longer tell where the next request begins.
 */
export function answerParseFailure(error: Error & { readonly code?: string }, socket: Duplex): void {
  if (socket.destroyed) return;
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const refusal = tooLarge
    ? new SimRefusal(431, 'InvalidArgument', 'the request line and headers are over 16 KiB: shorten the query string')
    : new SimRefusal(
        400,
        'InvalidArgument',
        `the request could not be parsed as HTTP/1.1 (${error.code ?? 'malformed'})`,
      );
  const text = answerText(errorResponse(refusal), 'sim-unparsed');
  socket.end(
    `HTTP/1.1 ${tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request'}\r\n` +
      `content-type: ${JSON_TYPE}\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`,
  );
}
