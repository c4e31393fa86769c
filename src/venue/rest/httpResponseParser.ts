/**
 * An incremental HTTP/1.1 response parser for the REST client's own connections (RFC 9112): the
 * status line, the header fields the client acts on, and the body framed by Content-Length,
 * chunked transfer coding, or the end of the connection. Interim 1xx responses are skipped. Fed
 * the socket's chunks as they come; says when the response is complete and whether the
 * connection may carry another request.
 */
export class HttpParseError extends Error {
  readonly code = 'HPE_INVALID_RESPONSE';
}

export interface ResponseHead {
  readonly status: number;
  /** Retry-After, several fields joined with ", " as fetch's `headers.get` joins them. */
  readonly retryAfter: string | null;
  readonly contentEncoding: string | undefined;
  /** The server keeps the connection open after this response. */
  readonly keepAlive: boolean;
  /** Seconds from a `Keep-Alive: timeout=N` field. */
  readonly keepAliveTimeoutS: number | undefined;
}

type State = 'head' | 'length' | 'chunkSize' | 'chunkData' | 'chunkEnd' | 'trailers' | 'untilClose' | 'done';

const CRLF = Buffer.from('\r\n');
const HEAD_END = Buffer.from('\r\n\r\n');
const EMPTY = Buffer.alloc(0);
/** Largest response head (status line and fields) and chunk-size or trailer line accepted. */
const MAX_HEAD_BYTES = 64 * 1024;
const MAX_LINE_BYTES = 8 * 1024;
const STATUS_LINE = /^HTTP\/1\.([01]) (\d{3})(?: [^\r\n]*)?$/;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const CHUNK_SIZE = /^[0-9A-Fa-f]{1,12}$/;

export class HttpResponseParser {
  private state: State = 'head';
  private pending: Buffer = EMPTY;
  private remaining = 0;
  private readonly parts: Buffer[] = [];
  private parsedHead: ResponseHead | undefined;
  /** Bytes arrived after the end of the response: the connection is not reused. */
  private trailing = false;

  get head(): ResponseHead | undefined {
    return this.parsedHead;
  }

  get complete(): boolean {
    return this.state === 'done';
  }

  /** Whether the connection may carry the next request once this response is complete. */
  get reusable(): boolean {
    return this.state === 'done' && !this.trailing && this.parsedHead?.keepAlive === true;
  }

  /** The body as received (still content-coded). */
  body(): Buffer {
    return this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts);
  }

  /** Feeds bytes from the socket; true once the response is complete. Throws HttpParseError. */
  push(chunk: Buffer): boolean {
    if (this.state === 'done') {
      if (chunk.length > 0) this.trailing = true;
      return true;
    }
    let buf = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    for (;;) {
      switch (this.state) {
        case 'head': {
          const end = buf.indexOf(HEAD_END);
          if (end < 0) {
            if (buf.length > MAX_HEAD_BYTES)
              throw new HttpParseError(`response head longer than ${MAX_HEAD_BYTES} bytes`);
            this.pending = buf;
            return false;
          }
          this.onHead(buf.toString('latin1', 0, end));
          buf = buf.subarray(end + 4);
          break;
        }
        case 'length':
        case 'chunkData': {
          const take = Math.min(this.remaining, buf.length);
          if (take > 0) this.parts.push(buf.subarray(0, take));
          this.remaining -= take;
          buf = buf.subarray(take);
          if (this.remaining > 0) {
            this.pending = EMPTY;
            return false;
          }
          this.state = this.state === 'length' ? 'done' : 'chunkEnd';
          break;
        }
        case 'chunkEnd': {
          if (buf.length < 2) {
            this.pending = buf;
            return false;
          }
          if (buf[0] !== 13 || buf[1] !== 10) throw new HttpParseError('chunk data not followed by CRLF');
          buf = buf.subarray(2);
          this.state = 'chunkSize';
          break;
        }
        case 'chunkSize':
        case 'trailers': {
          const end = buf.indexOf(CRLF);
          if (end < 0) {
            if (buf.length > MAX_LINE_BYTES)
              throw new HttpParseError(`chunk-size or trailer line longer than ${MAX_LINE_BYTES} bytes`);
            this.pending = buf;
            return false;
          }
          const line = buf.toString('latin1', 0, end);
          buf = buf.subarray(end + 2);
          if (this.state === 'trailers') {
            // Trailer fields are read past; the empty line ends the message.
            if (line === '') this.state = 'done';
            break;
          }
          const semicolon = line.indexOf(';');
          const size = (semicolon < 0 ? line : line.slice(0, semicolon)).trim();
          if (!CHUNK_SIZE.test(size))
            throw new HttpParseError(`invalid chunk size ${JSON.stringify(line.slice(0, 40))}`);
          this.remaining = Number.parseInt(size, 16);
          this.state = this.remaining === 0 ? 'trailers' : 'chunkData';
          break;
        }
        case 'untilClose':
          if (buf.length > 0) this.parts.push(buf);
          this.pending = EMPTY;
          return false;
        case 'done':
          if (buf.length > 0) this.trailing = true;
          this.pending = EMPTY;
          return true;
      }
    }
  }

  /** The connection ended; true when that completes the response (a body framed by the close). */
  end(): boolean {
    if (this.state === 'untilClose') this.state = 'done';
    return this.state === 'done';
  }

  private onHead(text: string): void {
    const lines = text.split('\r\n');
    const match = STATUS_LINE.exec(lines[0] ?? '');
    if (match === null)
      throw new HttpParseError(`invalid status line ${JSON.stringify((lines[0] ?? '').slice(0, 80))}`);
    const minor = match[1]!;
    const status = Number(match[2]);
    let contentLength: number | undefined;
    let transferEncoding: string | undefined;
    let connection = '';
    let retryAfter: string | null = null;
    let contentEncoding: string | undefined;
    let keepAliveTimeoutS: number | undefined;
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i]!;
      const colon = line.indexOf(':');
      const name = colon < 0 ? '' : line.slice(0, colon);
      if (!TOKEN.test(name)) throw new HttpParseError(`invalid header line ${JSON.stringify(line.slice(0, 80))}`);
      const value = line.slice(colon + 1).trim();
      switch (name.toLowerCase()) {
        case 'content-length':
          for (const part of value.split(',')) {
            const n = /^\d{1,15}$/.test(part.trim()) ? Number(part.trim()) : Number.NaN;
            if (Number.isNaN(n) || (contentLength !== undefined && contentLength !== n))
              throw new HttpParseError(`invalid content-length ${JSON.stringify(value)}`);
            contentLength = n;
          }
          break;
        case 'transfer-encoding':
          transferEncoding = transferEncoding === undefined ? value : `${transferEncoding}, ${value}`;
          break;
        case 'connection':
          connection = `${connection},${value.toLowerCase()}`;
          break;
        case 'retry-after':
          retryAfter = retryAfter === null ? value : `${retryAfter}, ${value}`;
          break;
        case 'content-encoding':
          contentEncoding = contentEncoding === undefined ? value : `${contentEncoding}, ${value}`;
          break;
        case 'keep-alive': {
          const timeout = /(?:^|[\s,])timeout=(\d+)/i.exec(value);
          if (timeout !== null) keepAliveTimeoutS = Number(timeout[1]);
          break;
        }
      }
    }
    // Interim answers (100 Continue, 103 Early Hints) come before the real one; nothing here asks to upgrade.
    if (status >= 100 && status < 200) {
      if (status === 101) throw new HttpParseError('unexpected 101 Switching Protocols');
      return;
    }
    const tokens = connection.split(',').map((t) => t.trim());
    let keepAlive = minor === '1' ? !tokens.includes('close') : tokens.includes('keep-alive');
    if (status === 204 || status === 304) {
      this.state = 'done';
    } else if (transferEncoding !== undefined) {
      // Chunked must be the last coding; any other transfer coding runs until the connection closes.
      if (/(?:^|,)\s*chunked\s*$/i.test(transferEncoding)) {
        this.state = 'chunkSize';
      } else {
        this.state = 'untilClose';
        keepAlive = false;
      }
    } else if (contentLength !== undefined) {
      this.remaining = contentLength;
      this.state = contentLength === 0 ? 'done' : 'length';
    } else {
      this.state = 'untilClose';
      keepAlive = false;
    }
    this.parsedHead = { status, retryAfter, contentEncoding, keepAlive, keepAliveTimeoutS };
  }
}
