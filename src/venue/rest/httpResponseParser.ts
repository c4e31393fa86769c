/** A response that breaks HTTP/1.1 framing: the connection is closed, not reused. */
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

/**
 * An incremental HTTP/1.1 response parser for the REST client's own connections (RFC 9112): the
 * status line, the header fields the client acts on, and the body framed by Content-Length,
 * chunked transfer coding, or the end of the connection. Interim 1xx responses are skipped. Fed
 * the socket's chunks as they come; says when the response is complete and whether the
 * connection may carry another request.
 */
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
    let buf: Buffer | null = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    while (buf !== null) buf = this.step(buf);
    return this.complete;
  }

  /** The connection ended; true when that completes the response (a body framed by the close). */
  end(): boolean {
    if (this.state === 'untilClose') this.state = 'done';
    return this.state === 'done';
  }

  /** Reads what the current state can from `buf`: the bytes after it, or null once it needs more bytes. */
  private step(buf: Buffer): Buffer | null {
    switch (this.state) {
      case 'head':
        return this.readHead(buf);
      case 'length':
      case 'chunkData':
        return this.readCounted(buf);
      case 'chunkEnd':
        return this.readChunkEnd(buf);
      case 'chunkSize':
      case 'trailers':
        return this.readLine(buf);
      case 'untilClose':
        if (buf.length > 0) this.parts.push(buf);
        return this.wait(EMPTY);
      case 'done':
        if (buf.length > 0) this.trailing = true;
        return this.wait(EMPTY);
    }
  }

  /** Keeps the unread bytes for the next push. */
  private wait(unread: Buffer): null {
    this.pending = unread;
    return null;
  }

  private readHead(buf: Buffer): Buffer | null {
    const end = buf.indexOf(HEAD_END);
    if (end < 0) {
      if (buf.length > MAX_HEAD_BYTES) throw new HttpParseError(`response head longer than ${MAX_HEAD_BYTES} bytes`);
      return this.wait(buf);
    }
    this.onHead(buf.toString('latin1', 0, end));
    return buf.subarray(end + 4);
  }

  /** Body bytes counted by Content-Length or by the current chunk's size. */
  private readCounted(buf: Buffer): Buffer | null {
    const take = Math.min(this.remaining, buf.length);
    if (take > 0) this.parts.push(buf.subarray(0, take));
    this.remaining -= take;
    if (this.remaining > 0) return this.wait(EMPTY);
    this.state = this.state === 'length' ? 'done' : 'chunkEnd';
    return buf.subarray(take);
  }

  private readChunkEnd(buf: Buffer): Buffer | null {
    if (buf.length < 2) return this.wait(buf);
    if (buf[0] !== 13 || buf[1] !== 10) throw new HttpParseError('chunk data not followed by CRLF');
    this.state = 'chunkSize';
    return buf.subarray(2);
  }

  /** A chunk-size line, or a trailer line (read past; the empty line ends the message). */
  private readLine(buf: Buffer): Buffer | null {
    const end = buf.indexOf(CRLF);
    if (end < 0) {
      if (buf.length > MAX_LINE_BYTES)
        throw new HttpParseError(`chunk-size or trailer line longer than ${MAX_LINE_BYTES} bytes`);
      return this.wait(buf);
    }
    const line = buf.toString('latin1', 0, end);
    if (this.state === 'chunkSize') this.onChunkSize(line);
    else if (line === '') this.state = 'done';
    return buf.subarray(end + 2);
  }

  private onChunkSize(line: string): void {
    const semicolon = line.indexOf(';');
    const size = (semicolon < 0 ? line : line.slice(0, semicolon)).trim();
    if (!CHUNK_SIZE.test(size)) throw new HttpParseError(`invalid chunk size ${JSON.stringify(line.slice(0, 40))}`);
    this.remaining = Number.parseInt(size, 16);
    this.state = this.remaining === 0 ? 'trailers' : 'chunkData';
  }

  private onHead(text: string): void {
    const lines = text.split('\r\n');
    const statusLine = lines[0] ?? '';
    const match = STATUS_LINE.exec(statusLine);
    if (match === null) throw new HttpParseError(`invalid status line ${JSON.stringify(statusLine.slice(0, 80))}`);
    const status = Number(match[2]);
    const fields = new ResponseFields();
    for (let i = 1; i < lines.length; i++) fields.add(lines[i]!);
    // Interim answers (100 Continue, 103 Early Hints) come before the real one; nothing here asks to upgrade.
    if (status >= 100 && status < 200) {
      if (status === 101) throw new HttpParseError('unexpected 101 Switching Protocols');
      return;
    }
    this.frameBody(status, fields);
    // A body framed by the close cannot leave the connection open.
    const keepAlive = this.state !== 'untilClose' && fields.keepAlive(match[1] === '1');
    const { retryAfter, contentEncoding, keepAliveTimeoutS } = fields;
    this.parsedHead = { status, retryAfter, contentEncoding, keepAlive, keepAliveTimeoutS };
  }

  /** Chooses how the body ends: no body, chunked, Content-Length, or the end of the connection. */
  private frameBody(status: number, fields: ResponseFields): void {
    if (status === 204 || status === 304) {
      this.state = 'done';
    } else if (fields.transferEncoding !== undefined) {
      // Chunked must be the last coding; any other transfer coding runs until the connection closes.
      this.state = /(?:^|,)\s*chunked\s*$/i.test(fields.transferEncoding) ? 'chunkSize' : 'untilClose';
    } else if (fields.contentLength !== undefined) {
      this.remaining = fields.contentLength;
      this.state = fields.contentLength === 0 ? 'done' : 'length';
    } else {
      this.state = 'untilClose';
    }
  }
}

/** The header fields the client acts on, gathered line by line; repeated fields are joined as fetch joins them. */
class ResponseFields {
  contentLength: number | undefined = undefined;
  transferEncoding: string | undefined = undefined;
  retryAfter: string | null = null;
  contentEncoding: string | undefined = undefined;
  keepAliveTimeoutS: number | undefined = undefined;
  private connection = '';

  add(line: string): void {
    const colon = line.indexOf(':');
    const name = colon < 0 ? '' : line.slice(0, colon);
    if (!TOKEN.test(name)) throw new HttpParseError(`invalid header line ${JSON.stringify(line.slice(0, 80))}`);
    const value = line.slice(colon + 1).trim();
    switch (name.toLowerCase()) {
      case 'content-length':
        this.addContentLength(value);
        break;
      case 'transfer-encoding':
        this.transferEncoding = this.transferEncoding === undefined ? value : `${this.transferEncoding}, ${value}`;
        break;
      case 'connection':
        this.connection = `${this.connection},${value.toLowerCase()}`;
        break;
      case 'retry-after':
        this.retryAfter = this.retryAfter === null ? value : `${this.retryAfter}, ${value}`;
        break;
      case 'content-encoding':
        this.contentEncoding = this.contentEncoding === undefined ? value : `${this.contentEncoding}, ${value}`;
        break;
      case 'keep-alive': {
        const timeout = /(?:^|[\s,])timeout=(\d+)/i.exec(value);
        if (timeout !== null) this.keepAliveTimeoutS = Number(timeout[1]);
        break;
      }
    }
  }

  /** Whether the server keeps the connection open: HTTP/1.1 unless it says close, HTTP/1.0 only if it says so. */
  keepAlive(http11: boolean): boolean {
    const tokens = this.connection.split(',').map((t) => t.trim());
    return http11 ? !tokens.includes('close') : tokens.includes('keep-alive');
  }

  /** Repeated or comma-joined lengths must all agree (RFC 9112 section 6.3). */
  private addContentLength(value: string): void {
    for (const part of value.split(',')) {
      const n = /^\d{1,15}$/.test(part.trim()) ? Number(part.trim()) : Number.NaN;
      if (Number.isNaN(n) || (this.contentLength !== undefined && this.contentLength !== n))
        throw new HttpParseError(`invalid content-length ${JSON.stringify(value)}`);
      this.contentLength = n;
    }
  }
}
