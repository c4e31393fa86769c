/**
 * HTTP/1.1 responses read off a keep-alive socket, for a load client that writes raw requests:
 * status and body of each complete response, however the bytes are split across chunks. Only
 * Content-Length framing (what node:http sends for `res.end(text)` with the header set).
 */
export interface RawResponse {
  readonly status: number;
  readonly body: string;
}

const HEADER_END = Buffer.from('\r\n\r\n');

export class HttpResponseReader {
  private buffered: Buffer = Buffer.alloc(0);

  /** Feeds a chunk; returns the responses it completed, in order. */
  push(chunk: Buffer): RawResponse[] {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    const out: RawResponse[] = [];
    for (;;) {
      const end = this.buffered.indexOf(HEADER_END);
      if (end < 0) return out;
      const head = this.buffered.toString('latin1', 0, end);
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(head);
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
      if (status === null || length === null) {
        throw new Error(`unreadable response head (no status or no content-length): ${head.slice(0, 200)}`);
      }
      const bodyStart = end + HEADER_END.length;
      const bodyEnd = bodyStart + Number(length[1]);
      if (this.buffered.length < bodyEnd) return out;
      out.push({ status: Number(status[1]), body: this.buffered.toString('utf8', bodyStart, bodyEnd) });
      this.buffered = this.buffered.subarray(bodyEnd);
    }
  }
}
