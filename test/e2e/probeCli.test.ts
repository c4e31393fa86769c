import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WireDeparture } from '../../src/sim/index.js';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import type { ProbeRow } from '../../src/runtime/diagnostics/probe/probeRow.js';
import { writeSimConfig } from '../runtime/cli/cliTestSupport.js';
import { fundedAccount, type SimAccount } from './support/simAccount.js';
import { spawnPerpbot } from './support/spawnPerpbot.js';

/**
 * `perpbot probe` as a user runs it (the CLI in a child process) against a simulator in
 * this process: every row ok and exit 0 on the simulator as it is; on one that sends the order
 * book in a departed shape (wei levels instead of decimals), that row names the field and exit 1.
 */
interface ProbeReport {
  readonly ok: boolean;
  readonly rows: readonly ProbeRow[];
}

async function probeAgainst(
  sim: RunningSim,
): Promise<{ code: number | null; stdout: string; report: ProbeReport; dir: string }> {
  const who: SimAccount = await fundedAccount(sim);
  const { dir, path } = await writeSimConfig(sim, [1]);
  await writeFile(
    path,
    `${await readFile(path, 'utf8')}journal: { path: ${JSON.stringify(join(dir, 'journal.sqlite'))} }\n`,
  );
  const json = join(dir, 'probe.json');
  const run = await spawnPerpbot(
    ['probe', '--config', path, '--seconds', '2', '--json', json],
    { PERPBOT_ACCOUNT_KEY: who.accountKey, PERPBOT_SIGNER_KEY: who.signerKey },
    60_000,
  );
  const report = existsSync(json) ? (JSON.parse(await readFile(json, 'utf8')) as ProbeReport) : { ok: false, rows: [] };
  return { code: run.code, stdout: `${run.stdout}\n${run.stderr}`, report, dir };
}

const rowNamed = (report: ProbeReport, prefix: string): ProbeRow | undefined =>
  report.rows.find((r) => r.name.startsWith(prefix));

describe('perpbot probe (spawned)', () => {
  let sim: RunningSim;
  let departed: RunningSim;
  const dirs: string[] = [];

  beforeAll(async () => {
    sim = await startSim({ port: 0, seed: 3, blockMs: 50, registrationLagMs: 0 });
    // The simulator's switch for one channel in the shape the real venue does not send (wt-ws).
    const wireDepartures: readonly WireDeparture[] = ['orderbook-wei'];
    departed = await startSim({ port: 0, seed: 3, blockMs: 50, registrationLagMs: 0, wireDepartures });
  }, 30_000);

  afterAll(async () => {
    await sim.close();
    await departed.close();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('prints one ok row per read and channel and exits 0 against the simulator', async () => {
    const { code, stdout, report, dir } = await probeAgainst(sim);
    dirs.push(dir);
    expect(
      report.rows.filter((r) => r.status !== 'ok'),
      stdout,
    ).toEqual([]);
    expect(code, stdout).toBe(0);
    expect(report.ok).toBe(true);
    // Reads, channels (public and, after auth_v2, private) and the book's checksums all ran.
    for (const name of [
      'GET /v1/markets',
      'GET /v1/account/position',
      'GET /v1/orders/open',
      'GET /v1/orders/tpsl',
      'auth_v2',
      'orderbook',
      'funding',
      'orders',
      'fills',
    ])
      expect(rowNamed(report, name)?.status, name).toBe('ok');
    expect(rowNamed(report, 'orderbook')?.detail).toMatch(/[1-9]\d* checksum\(s\) verified/);
    expect(stdout).toMatch(/all \d+ reads and channels ok/);
  }, 90_000);

  it('reports the departed orderbook row with its field and a saved sample, and exits 1', async () => {
    const { code, stdout, report, dir } = await probeAgainst(departed);
    dirs.push(dir);
    expect(code, stdout).toBe(1);
    const book = rowNamed(report, 'orderbook');
    expect(book?.status, stdout).toBe('departed');
    expect(book?.failure?.source).toBe('ws:orderbook');
    expect(book?.failure?.field).toMatch(/^data\.(bids|asks)\.\d+\.(price|quantity)$/);
    expect(book?.detail).toContain(book?.failure?.field);
    expect(book?.sample).toBeDefined();
    expect(book?.sample?.startsWith(join(dir, 'wire-samples'))).toBe(true);
    const sample = JSON.parse(await readFile(book?.sample ?? '', 'utf8')) as {
      source: string;
      raw: { channel: string };
    };
    expect(sample).toMatchObject({ source: 'ws:orderbook', raw: { channel: 'orderbook' } });
    // Only that channel departed: the rest of the venue still reads.
    expect(report.rows.filter((r) => r.status !== 'ok').map((r) => r.name)).toEqual([book?.name]);
    expect(stdout).toContain(book?.failure?.field);
  }, 90_000);
});
