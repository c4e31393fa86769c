import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from './support/journalBot.js';
import { CONTROL_TOKEN, serviceBotOnSim, type ServiceBot, type ServiceBotOnSim } from './support/serviceBot.js';
import { REPO_ROOT } from './support/spawnPerpbot.js';

/**
 * deploy/docker/probe.mjs, the exec probe of the Kubernetes manifests and the Dockerfile's health
 * check, against a real bot whose control server listens beyond loopback as in a pod (every route
 * needs the token): 0 for /health and /ready with the token from the environment, 1 without it or
 * when nothing listens.
 */
const PROBE = join(REPO_ROOT, 'deploy', 'docker', 'probe.mjs');
const STRATEGY = `  - name: probe
    module: strategies/serviceProbe.ts
    markets: [1]
    params: { size: "0.0005", taker_size: "0.001", bids: ["60000", "61000"] }`;

function probe(url: string, env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PERPBOT_')));
  return new Promise((done) => {
    execFile(process.execPath, [PROBE, url], { env: { ...base, ...env }, timeout: 10_000 }, (error, _stdout, stderr) =>
      done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stderr }),
    );
  });
}

describe('the container probe (deploy/docker/probe.mjs)', () => {
  let service: ServiceBotOnSim;
  let bot: ServiceBot;
  let port: string;

  beforeAll(async () => {
    service = await serviceBotOnSim(STRATEGY, {
      blockMs: 0,
      edit: (config) => config.replace('control: { port: 0 }', 'control: { host: 0.0.0.0, port: 0 }'),
    });
    bot = service.bot;
    port = new URL(bot.url).port;
  });
  afterAll(() => service?.close());

  it('passes /health and, once trading, /ready with the token from PERPBOT_CONTROL_TOKEN', async () => {
    expect(await probe(`http://127.0.0.1:${port}/health`, { PERPBOT_CONTROL_TOKEN: CONTROL_TOKEN })).toEqual({
      code: 0,
      stderr: '',
    });
    await until(
      async () => (await probe(`http://127.0.0.1:${port}/ready`, { PERPBOT_CONTROL_TOKEN: CONTROL_TOKEN })).code === 0,
      15_000,
    );
  });

  it('fails without the token (the control server answers 401 beyond loopback), saying so', async () => {
    const run = await probe(`http://127.0.0.1:${port}/health`, {});
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('401');
  });

  it('fails when nothing listens', async () => {
    const run = await probe('http://127.0.0.1:1/health', { PERPBOT_CONTROL_TOKEN: CONTROL_TOKEN });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('http://127.0.0.1:1/health');
  });
});
