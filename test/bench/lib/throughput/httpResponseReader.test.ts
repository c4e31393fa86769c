import { describe, expect, it } from 'vitest';
import { HttpResponseReader } from '../../../../bench/lib/throughput/httpResponseReader.js';

const response = (status: number, body: string) =>
  `HTTP/1.1 ${status} OK\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: keep-alive\r\n\r\n${body}`;

describe('HttpResponseReader', () => {
  it('returns a response only once its whole body has arrived, however the bytes are split', () => {
    const reader = new HttpResponseReader();
    const text = Buffer.from(response(200, '{"data":{"order_id":"0xé"}}'));
    const cuts = [5, 40, text.length - 3];
    const parts = [
      text.subarray(0, cuts[0]),
      text.subarray(cuts[0], cuts[1]),
      text.subarray(cuts[1], cuts[2]),
      text.subarray(cuts[2]),
    ];
    expect(parts.slice(0, 3).flatMap((p) => reader.push(p))).toEqual([]);
    expect(reader.push(parts[3]!)).toEqual([{ status: 200, body: '{"data":{"order_id":"0xé"}}' }]);
  });

  it('reads several responses from one chunk, in order, and keeps the partial rest', () => {
    const reader = new HttpResponseReader();
    const next = response(400, '{"error":{"code":"NotFound"}}');
    const chunk = Buffer.from(response(200, '{"data":{}}') + next.slice(0, 20));
    expect(reader.push(chunk)).toEqual([{ status: 200, body: '{"data":{}}' }]);
    expect(reader.push(Buffer.from(next.slice(20)))).toEqual([{ status: 400, body: '{"error":{"code":"NotFound"}}' }]);
  });

  it('refuses a response without a content length rather than miscounting answers', () => {
    const reader = new HttpResponseReader();
    expect(() => reader.push(Buffer.from('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n'))).toThrow(
      /content-length/,
    );
  });
});
