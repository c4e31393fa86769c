/**
 * The limit of sim_throughput: a bare node:http server that does the least a signed-request venue
 * must do per request (read the body, JSON.parse it, recover the permit's signature natively)
 * and answers at once. No routing, no nonce book, no exchange. Run as its own process, like the
 * simulator, on the same load; prints `bare REST <url>` once listening, stops on SIGTERM.
 */
import { createServer } from 'node:http';
import { loadNativeSecp256k1 } from '../src/protocol/nativeSecp256k1.js';

const lib = loadNativeSecp256k1();
if (lib === null) {
  process.stderr.write(
    'bareSigServer: the native secp256k1 binding did not load; the limit would be the pure-JS one\n',
  );
  process.exit(1);
}
// Any 32 bytes: recovery costs the same whatever the digest, and hashing it is venue work the limit leaves out.
const DIGEST = Buffer.alloc(32, 7);
let answered = 0;

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    let status = 200;
    let text: string;
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { permit?: { signature?: string } };
      const rs = Buffer.from(body.permit?.signature ?? '', 'base64');
      if (rs.length !== 64) throw new Error(`permit.signature is ${rs.length} bytes, expected 64 (compact)`);
      // EIP-2098: the top bit of s carries yParity.
      const yParity = rs[32]! >> 7;
      rs[32] = rs[32]! & 0x7f;
      const key = lib.ecdsaRecover(rs, yParity, DIGEST, false);
      text = `{"data":{"recovered":${key.length === 65}},"request_id":"bare-${++answered}"}`;
    } catch (error) {
      status = 400;
      text = JSON.stringify({
        error: { code: 'InvalidArgument', message: error instanceof Error ? error.message : String(error) },
      });
    }
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(text),
    });
    res.end(text);
  });
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  process.stdout.write(`bare REST http://127.0.0.1:${port}\n`);
});
process.once('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
});
