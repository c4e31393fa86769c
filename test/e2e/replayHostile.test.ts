import { readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordSimInProcess } from './support/recordSimInProcess.js';
import { REPO_ROOT, startPerpbotIn } from './support/spawnPerpbot.js';

const SEGMENT = 'rec-20260601T120000.000Z-000001.jsonl.gz';

interface Run {
  readonly code: number | null;
  readonly output: string;
  readonly ms: number;
  /** The child's CPU time (user + system), ms, read from /proc while it ran (its last reading). */
  readonly cpuMs: number;
  /** The child's peak resident set (VmHWM), MB, read from /proc while it ran. */
  readonly peakRssMb: number;
}

/**
 * `perpbot replay REC` spawned, its peak memory polled from /proc; with `termWhenReading`, SIGTERM
 * as soon as it has that file open (reading it: its signal handlers are in place by then).
 */
async function replay(rec: string, out: string, extra: readonly string[] = [], termWhenReading?: string): Promise<Run> {
  const startedAt = Date.now();
  const cli = startPerpbotIn(['replay', rec, '--config', 'config/default.yaml', '--out', out, ...extra], REPO_ROOT, {});
  let peakKb = 0;
  let cpuTicks = 0;
  const poll = setInterval(() => {
    try {
      const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${cli.child.pid}/status`, 'utf8'));
      peakKb = Math.max(peakKb, Number(match?.[1] ?? 0));
      cpuTicks = Math.max(cpuTicks, cpuTicksOf(readFileSync(`/proc/${cli.child.pid}/stat`, 'utf8')));
    } catch {
      // Gone already.
    }
  }, 20);
  let termedAt: number | undefined;
  const term =
    termWhenReading === undefined
      ? undefined
      : setInterval(() => {
          if (termedAt !== undefined || !hasOpen(cli.child.pid, termWhenReading)) return;
          termedAt = Date.now();
          cli.child.kill('SIGTERM');
        }, 20);
  const guard = setTimeout(() => cli.child.kill('SIGKILL'), 60_000);
  const code = await cli.exited;
  clearInterval(poll);
  clearTimeout(guard);
  if (term !== undefined) clearInterval(term);
  return {
    code,
    output: cli.output(),
    ms: Date.now() - (termedAt ?? startedAt),
    cpuMs: cpuTicks * 10,
    peakRssMb: Math.round(peakKb / 1024),
  };
}

/** Whether process `pid` has `path` open (through /proc/PID/fd). */
function hasOpen(pid: number | undefined, path: string): boolean {
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`) === path;
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

/** Records of a recording segment as JSON lines. */
function linesOf(segment: string): string[] {
  return gunzipSync(readFileSync(segment), { finishFlush: 2 })
    .toString('utf8')
    .split('\n')
    .filter((l) => l !== '');
}

/** A raw control character a terminal acts on: ESC, CSI (C1), BEL. */
/**
 * The process's CPU time so far (user + system, in clock ticks of 10 ms) from `/proc/PID/stat`: the
 * work it did, which a loaded machine does not stretch as it stretches the wall time.
 */
function cpuTicksOf(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** A refusal is quick: less than 10 s of CPU (a run through the bomb or the long line would take far more). */
const REFUSAL_CPU_MS = 10_000;

const hasRawControl = (text: string): boolean => ['\u001b', '\u009b', '\u0007'].some((c) => text.includes(c));

/**
 * `perpbot replay` on recordings made to hurt: a 10 MB line, a gzip bomb, frames with NaN and
 * negative prices and of a market the recording does not list, terminal escape sequences. Each
 * ends within 10 s with a non-zero exit and a one-line reason, its memory bounded, nothing echoed
 * raw; a SIGTERM stops it within a second.
 */
describe('perpbot replay on a hostile recording (spawned)', () => {
  let dir: string;
  let header: string;
  let frames: string[];
  const runs: Record<string, Run> = {};

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'perpbot-replay-hostile-'));
    const sound = join(dir, 'sound');
    await recordSimInProcess({ dir: sound, markets: [1], minutes: 1, seed: 5, blockMs: 250 });
    const [segment] = await readdir(sound);
    const lines = linesOf(join(sound, segment ?? ''));
    header = lines[0] ?? '';
    frames = lines.slice(1);
  }, 60_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
    // Measured, for the record: the report quotes these.
    console.log(
      Object.entries(runs)
        .map(([name, r]) => `${name}: exit ${r.code}, ${r.ms} ms (${r.cpuMs} ms CPU), peak RSS ${r.peakRssMb} MB`)
        .join('\n'),
    );
  });

  async function segment(name: string, body: Buffer): Promise<string> {
    const path = join(dir, name);
    await mkdir(path);
    await writeFile(join(path, SEGMENT), body);
    return path;
  }

  it('a 10 MB line: refused with its line number, memory bounded', async () => {
    const rec = await segment(
      'long-line',
      gzipSync(`${[header, ...frames.slice(0, 50)].join('\n')}\n${'9'.repeat(10 * 1024 * 1024)}\n`),
    );
    const run = (runs['10 MB line'] = await replay(rec, join(dir, 'out-long')));
    expect(run.code).toBe(1);
    expect(run.cpuMs).toBeLessThan(REFUSAL_CPU_MS);
    expect(run.output).toMatch(/^perpbot: .* line 52 is not a recording record: longer than \d+ characters/m);
    expect(run.peakRssMb).toBeLessThan(400);
  }, 30_000);

  it('a gzip bomb (1 MB claiming 1 GB, concatenated members): refused, memory bounded', async () => {
    const gap = `${JSON.stringify({ type: 'gap', t: 1, src: 'public', reason: 'z'.repeat(1000) })}\n`;
    const member = gzipSync(gap.repeat(10_000));
    const rec = await segment(
      'bomb',
      Buffer.concat([gzipSync(`${header}\n`), ...Array.from({ length: 100 }, () => member)]),
    );
    const run = (runs['gzip bomb'] = await replay(rec, join(dir, 'out-bomb')));
    expect(run.code).toBe(1);
    expect(run.cpuMs).toBeLessThan(REFUSAL_CPU_MS);
    expect(run.output).toMatch(
      /^perpbot: .* inflates past \d+ bytes \(more than 50 times its size\): not a recording segment, refused/m,
    );
    expect(run.peakRssMb).toBeLessThan(400);
  }, 30_000);

  it('NaN and negative prices, an unknown market, escape sequences: counted, exit 1 with one line, nothing raw', async () => {
    const book =
      frames.find((line) => line.includes('\\"channel\\":\\"orderbook\\"') && line.includes('\\"price\\"')) ?? '';
    const price = /\\"price\\":\\"([0-9.]+)\\"/.exec(book)?.[1] ?? '';
    expect(price).not.toBe('');
    const hostile = [
      book.replace(`\\"price\\":\\"${price}\\"`, '\\"price\\":\\"NaN\\"'),
      book.replace(`\\"price\\":\\"${price}\\"`, `\\"price\\":\\"-${price}\\"`),
      book
        .replaceAll('\\"market_id\\":1', '\\"market_id\\":99')
        .replaceAll('\\"market_id\\":\\"1\\"', '\\"market_id\\":\\"99\\"'),
      JSON.stringify({
        type: 'frame',
        t: JSON.parse(book).t,
        src: 'public',
        raw: '\u001b]0;owned\u0007\u001b[31mred\u009b2J',
      }),
    ];
    const escapedHeader = header.replace(/"run":"[^"]*"/, '"run":"\\u001b]0;owned\\u0007\\u001b[2Jrun"');
    const rec = await segment(
      'bad-frames',
      gzipSync(`${[escapedHeader, ...frames.slice(0, 100), ...hostile, ...frames.slice(100)].join('\n')}\n`),
    );
    const run = (runs['bad frames'] = await replay(rec, join(dir, 'out-bad')));
    expect(run.code).toBe(1);
    expect(run.cpuMs).toBeLessThan(REFUSAL_CPU_MS);
    const reason = run.output.split('\n').filter((line) => line.startsWith('perpbot: '));
    expect(reason).toEqual([
      expect.stringMatching(
        /^perpbot: the recording held 3 frame\(s\) the bot's decoders refused .* and 1 of markets its header does not list/,
      ),
    ]);
    expect(run.output).toContain('run \\x1b]0;owned\\x07\\x1b[2Jrun');
    expect(hasRawControl(run.output)).toBe(false);
    const report = JSON.parse(readFileSync(join(dir, 'out-bad', 'report.json'), 'utf8')) as {
      recording: { refusedFrames: number; foreignFrames: number };
    };
    expect(report.recording).toMatchObject({ refusedFrames: 3, foreignFrames: 1 });
    // What perpbot writes is its owner's alone: 0600 files in a 0700 directory it made.
    expect(statSync(join(dir, 'out-bad', 'report.json')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'out-bad', 'report.html')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'out-bad')).mode & 0o777).toBe(0o700);
    const allowed = await replay(rec, join(dir, 'out-allowed'), ['--allow-bad-frames']);
    expect(allowed.code).toBe(0);
  }, 60_000);

  it('stops within a second of SIGTERM in the middle of a large recording', async () => {
    const gap = `${JSON.stringify({ type: 'gap', t: 1, src: 'public', reason: 'w'.repeat(1000) })}\n`;
    // Inflates about 20 times: within the bound, so only the signal ends it early. One member
    // compressed once and concatenated 40 times: a reader inflates each as it comes.
    const member = gzipSync(gap.repeat(5_000), { level: 1 });
    const body = Buffer.concat([gzipSync(`${header}\n`), ...Array.from({ length: 40 }, () => member)]);
    const rec = await segment('large', body);
    const run = (runs['SIGTERM'] = await replay(rec, join(dir, 'out-term'), [], join(rec, SEGMENT)));
    expect(run.output).toContain('perpbot: interrupted');
    expect(run.ms).toBeLessThan(1_000);
  }, 30_000);
});
