/**
 * The load client of sim_throughput, run as its own process (`bench/lib/throughput/runLoad.ts`
 * forks it) so that the server under load has a core to itself and the client's work is not
 * counted: every request arrives pre-signed and pre-serialised; this process only writes the
 * bytes on keep-alive connections (one request in flight on each) and reads the answers.
 */
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { HttpResponseReader, type RawResponse } from './lib/throughput/httpResponseReader.js';
import type { LoadJob, LoadResult } from './lib/throughput/loadJob.js';
import { OrderSequenceTally } from './lib/throughput/orderSequences.js';
import { SendScheduler } from './lib/throughput/sendScheduler.js';

async function run(job: LoadJob): Promise<LoadResult> {
  const url = new URL(job.url);
  const host = url.hostname;
  const port = Number(url.port);
  // Header set of undici's fetch (what the engine's REST client sends), framed once up front.
  const frames = job.requests.map((r) =>
    Buffer.from(
      `POST ${r.path} HTTP/1.1\r\nhost: ${url.host}\r\nconnection: keep-alive\r\ncontent-type: application/json\r\naccept: application/json\r\n` +
        `accept-language: *\r\nsec-fetch-mode: cors\r\nuser-agent: node\r\naccept-encoding: gzip, deflate\r\ncontent-length: ${Buffer.byteLength(r.body)}\r\n\r\n${r.body}`,
    ),
  );
  const scheduler = new SendScheduler(job.requests);
  const sockets = await Promise.all(Array.from({ length: job.connections }, () => open(host, port)));
  const statuses: Record<string, number> = {};
  const failures: string[] = [];
  let ok = 0;
  let failed = 0;
  const sequences = new OrderSequenceTally();
  const started = performance.now();
  const cpuAtStart = process.cpuUsage();
  let ended = started;

  return new Promise<LoadResult>((resolve) => {
    let finished = false;
    const finish = (error?: string): void => {
      if (finished) return;
      finished = true;
      for (const s of sockets) s.destroy();
      const cpu = process.cpuUsage(cpuAtStart);
      const range = sequences.range();
      resolve({
        clientCpuMs: (cpu.user + cpu.system) / 1000,
        requests: job.requests.length,
        ok,
        failed,
        elapsedMs: ended - started,
        statuses,
        failures,
        ...(job.readOrderIds && range !== undefined ? { orderSequences: range } : {}),
        ...(error === undefined ? {} : { error }),
      });
    };
    const idle: Socket[] = [];
    const pump = (): void => {
      while (idle.length > 0) {
        const index = scheduler.next();
        if (index === undefined) break;
        const socket = idle.pop()!;
        inFlight.set(socket, index);
        socket.write(frames[index]!);
      }
      if (scheduler.done) {
        ended = performance.now();
        finish();
      } else if (scheduler.stuck) {
        finish(`stopped after ${ok + failed} answers: a cancel waits for a place that failed`);
      }
    };
    const inFlight = new Map<Socket, number>();
    const onAnswer = (socket: Socket, response: RawResponse): void => {
      const index = inFlight.get(socket);
      if (index === undefined) {
        finish(`an answer nobody asked for: HTTP ${response.status} ${response.body.slice(0, 200)}`);
        return;
      }
      inFlight.delete(socket);
      const request = job.requests[index]!;
      const good = response.status === 200 && response.body.startsWith('{"data"');
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
      if (good) ok++;
      else {
        failed++;
        if (failures.length < 5)
          failures.push(`${request.kind} #${request.pair}: HTTP ${response.status} ${response.body.slice(0, 300)}`);
      }
      if (good && job.readOrderIds && request.kind === 'place') sequences.add(response.body);
      scheduler.answered(index, good);
      idle.push(socket);
      pump();
    };
    for (const socket of sockets) {
      const reader = new HttpResponseReader();
      socket.on('data', (chunk: Buffer) => {
        for (const response of reader.push(chunk)) onAnswer(socket, response);
      });
      socket.on('close', () => finish(`a connection closed after ${ok + failed} answers`));
      socket.on('error', (error) => finish(`connection error after ${ok + failed} answers: ${error.message}`));
      idle.push(socket);
    }
    pump();
  });
}

function open(host: string, port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    socket.setNoDelay(true);
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

const jobPath = process.argv[2];
if (jobPath === undefined || process.send === undefined) {
  process.stderr.write('usage: forked by bench/lib/throughput/runLoad.ts with a job file\n');
  process.exit(2);
}
const job = JSON.parse(readFileSync(jobPath, 'utf8')) as LoadJob;
const result = await run(job);
process.send(result, undefined, {}, () => process.exit(0));
