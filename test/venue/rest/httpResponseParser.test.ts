import { describe, expect, it } from 'vitest';
import { HttpParseError, HttpResponseParser } from '../../../src/venue/rest/httpResponseParser.js';

/** Feeds `raw` split at the given offsets; the parser's verdict after each piece. */
function feed(raw: string, cuts: readonly number[] = []): { parser: HttpResponseParser; completeAfter: boolean[] } {
  const bytes = Buffer.from(raw, 'latin1');
  const parser = new HttpResponseParser();
  const completeAfter: boolean[] = [];
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    completeAfter.push(parser.push(bytes.subarray(from, cut)));
    from = cut;
  }
  return { parser, completeAfter };
}

const CHUNKED =
  'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nRetry-After: 1\r\nretry-after: 2\r\n\r\n5;ext=1\r\nhello\r\n7\r\n, world\r\n0\r\nX-Trailer: t\r\n\r\n';

describe('HTTP response parser', () => {
  it('reads a Content-Length body and the fields the client acts on', () => {
    const { parser, completeAfter } = feed(
      'HTTP/1.1 429 Too Many Requests\r\nContent-Length: 2\r\nRetry-After: 3\r\nContent-Encoding: gzip\r\nKeep-Alive: timeout=5, max=100\r\n\r\n{}',
    );
    expect(completeAfter).toEqual([true]);
    expect(parser.head).toEqual({
      status: 429,
      retryAfter: '3',
      contentEncoding: 'gzip',
      keepAlive: true,
      keepAliveTimeoutS: 5,
    });
    expect(parser.body().toString()).toBe('{}');
    expect(parser.reusable).toBe(true);
  });

  it('gives the same answer however the bytes are split (chunked, extensions, trailers, repeated fields)', () => {
    const whole = feed(CHUNKED).parser;
    expect(whole.body().toString()).toBe('hello, world');
    expect(whole.head?.retryAfter).toBe('1, 2');
    for (let a = 1; a < CHUNKED.length; a++) {
      const { parser, completeAfter } = feed(CHUNKED, [a]);
      expect(completeAfter, `split at ${a}`).toEqual([false, true]);
      expect(parser.body().toString()).toBe('hello, world');
    }
    for (let a = 1; a < CHUNKED.length; a += 7) {
      for (let b = a + 1; b < CHUNKED.length; b += 5) {
        expect(feed(CHUNKED, [a, b]).parser.body().toString(), `split at ${a}, ${b}`).toBe('hello, world');
      }
    }
  });

  it('skips interim 1xx answers and reads the real one', () => {
    const { parser } = feed(
      'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 1\r\n\r\nx',
    );
    expect(parser.head?.status).toBe(201);
    expect(parser.body().toString()).toBe('x');
  });

  it('frames a body without length by the end of the connection, which is then not reused', () => {
    const { parser, completeAfter } = feed('HTTP/1.1 200 OK\r\n\r\npart one, ');
    expect(completeAfter).toEqual([false]);
    parser.push(Buffer.from('part two'));
    expect(parser.end()).toBe(true);
    expect(parser.body().toString()).toBe('part one, part two');
    expect(parser.reusable).toBe(false);
  });

  it('knows a cut-short body from a complete one when the connection ends', () => {
    const { parser } = feed('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n12345');
    expect(parser.end()).toBe(false);
    expect(parser.complete).toBe(false);
  });

  it('does not reuse a connection the server closes, or one with bytes after the answer', () => {
    expect(feed('HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n').parser.reusable).toBe(false);
    expect(feed('HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n').parser.reusable).toBe(false);
    expect(feed('HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n').parser.reusable).toBe(true);
    const extra = feed('HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nxy').parser;
    expect(extra.complete).toBe(true);
    expect(extra.body().toString()).toBe('x');
    expect(extra.reusable).toBe(false);
  });

  it('accepts repeated Content-Length values that agree', () => {
    const { parser, completeAfter } = feed('HTTP/1.1 200 OK\r\nContent-Length: 3, 3\r\nContent-Length: 3\r\n\r\nabc');
    expect(completeAfter).toEqual([true]);
    expect(parser.body().toString()).toBe('abc');
    expect(parser.reusable).toBe(true);
  });

  it('reads a body whose last transfer coding is not chunked until the connection ends, and never reuses it', () => {
    const { parser, completeAfter } = feed(
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip\r\nContent-Length: 2\r\n\r\n0\r\n\r\nrest',
    );
    expect(completeAfter).toEqual([false]);
    expect(parser.end()).toBe(true);
    expect(parser.body().toString()).toBe('0\r\n\r\nrest');
    expect(parser.head?.keepAlive).toBe(false);
    expect(parser.reusable).toBe(false);
  });

  it('reads 204 and 304 as bodiless whatever their Content-Length', () => {
    expect(feed('HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\n').completeAfter).toEqual([true]);
    expect(feed('HTTP/1.1 304 Not Modified\r\n\r\n').parser.body().length).toBe(0);
  });

  it('refuses what it cannot frame safely', () => {
    for (const raw of [
      'HTTP/2 200 OK\r\n\r\n',
      'HTTP/1.1 20 OK\r\n\r\n',
      'HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n',
      'HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n',
      'HTTP/1.1 200 OK\r\nBad Header\r\n\r\n',
      'HTTP/1.1 200 OK\r\n folded: value\r\n\r\n',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabX\r\n',
      'HTTP/1.1 101 Switching Protocols\r\n\r\n',
    ]) {
      expect(() => feed(raw), JSON.stringify(raw)).toThrow(HttpParseError);
    }
    expect(() => feed(`HTTP/1.1 200 OK\r\nX: ${'a'.repeat(70_000)}`)).toThrow(/longer than/);
  });
});
