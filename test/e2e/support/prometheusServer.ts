import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { parse } from 'yaml';
import { PROMETHEUS, requireBinary } from '../../deploy/support/promtool.js';
import { REPO_ROOT } from './spawnPerpbot.js';
import { until } from './journalBot.js';

const SHIPPED = join(REPO_ROOT, 'deploy', 'prometheus');

/** A port nobody listens on now (the kernel's choice), for a server that takes no port 0. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  await new Promise<void>((done) => server.close(() => done()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

export interface TestPrometheus {
  readonly url: string;
  /** GET /api/v1/<path>: the `data` of a success, or throws with Prometheus's error. */
  api<T>(path: string, params?: Record<string, string>): Promise<T>;
  output(): string;
  close(): Promise<void>;
}

/**
 * Debian's Prometheus on the shipped deploy/prometheus/prometheus.yml, with what a test changes:
 * the targets, 1 s intervals, no Alertmanager, and the shipped rules with `forOf(alert)` (a short
 * `for:` where the test waits for an alert) written to `dir`.
 */
export async function startPrometheus(options: {
  readonly dir: string;
  readonly targets: readonly string[];
  readonly forOf: Readonly<Record<string, string>>;
}): Promise<TestPrometheus> {
  requireBinary(PROMETHEUS, 'prometheus');
  const { dir } = options;
  const rules = parse(readFileSync(join(SHIPPED, 'rules', 'perpbot.rules.yml'), 'utf8')) as {
    groups: { rules: { alert?: string; for?: string }[] }[];
  };
  for (const rule of rules.groups.flatMap((g) => g.rules)) {
    const shorter = rule.alert === undefined ? undefined : options.forOf[rule.alert];
    if (shorter !== undefined) rule.for = shorter;
  }
  writeFileSync(join(dir, 'perpbot.rules.yml'), JSON.stringify(rules));
  const config = parse(readFileSync(join(SHIPPED, 'prometheus.yml'), 'utf8')) as {
    global: Record<string, string>;
    rule_files: string[];
    alerting?: unknown;
    scrape_configs: { job_name: string; static_configs: { targets: string[] }[] }[];
  };
  config.global = { scrape_interval: '1s', scrape_timeout: '1s', evaluation_interval: '1s' };
  config.rule_files = [join(dir, 'perpbot.rules.yml')];
  delete config.alerting;
  const job = config.scrape_configs.find((c) => c.job_name === 'perpbot');
  if (job === undefined) throw new Error('deploy/prometheus/prometheus.yml has no perpbot job');
  job.static_configs = [{ targets: [...options.targets] }];
  writeFileSync(join(dir, 'prometheus.yml'), JSON.stringify(config));
  const port = await freePort();
  const child = spawn(PROMETHEUS, [
    `--config.file=${join(dir, 'prometheus.yml')}`,
    `--storage.tsdb.path=${join(dir, 'tsdb')}`,
    `--web.listen-address=127.0.0.1:${port}`,
    '--log.level=warn',
  ]);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const server = prometheusClient(url, child, () => output);
  await until(async () => (await fetch(`${url}/-/ready`).catch(() => undefined))?.status === 200, 20_000).catch(
    (error: unknown) => {
      child.kill('SIGKILL');
      throw new Error(`Prometheus did not get ready:\n${output.slice(-2000)}`, { cause: error });
    },
  );
  return server;
}

function prometheusClient(url: string, child: ChildProcess, output: () => string): TestPrometheus {
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return {
    url,
    output,
    api: async <T>(path: string, params: Record<string, string> = {}) => {
      const answer = await fetch(`${url}/api/v1/${path}?${new URLSearchParams(params).toString()}`);
      const body = (await answer.json()) as { status: string; data: T; error?: string };
      if (body.status !== 'success') throw new Error(`Prometheus ${path} ${JSON.stringify(params)}: ${body.error}`);
      return body.data;
    },
    close: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
