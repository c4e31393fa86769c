import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { loadConfig } from '../../src/runtime/config/loadConfig.js';
import { recordSimInProcess } from './support/recordSimInProcess.js';
import { REPO_ROOT } from './support/spawnPerpbot.js';

/**
 * deploy/kubernetes as far as a machine without a cluster can take it: the manifests parse, the
 * Indexed Job's shard count agrees with its completions, its ConfigMap is a config perpbot loads
 * with a sweep in it, and each pod's command, run here by sh with the environment Kubernetes would
 * give pod i (JOB_COMPLETION_INDEX and the container's env), runs its shard of the sweep; the merge
 * Job's command then joins the shards into one study with every variant once.
 */
interface Container {
  readonly command: readonly string[];
  readonly env: readonly { readonly name: string; readonly value: string }[];
}

interface Manifest {
  readonly kind: string;
  readonly metadata: { readonly name: string };
  readonly data?: Record<string, string>;
  readonly spec?: {
    readonly completionMode?: string;
    readonly completions?: number;
    readonly parallelism?: number;
    readonly template: { readonly spec: { readonly containers: readonly Container[] } };
  };
}

function manifests(file: string): Manifest[] {
  return parseAllDocuments(readFileSync(join(REPO_ROOT, 'deploy', 'kubernetes', file), 'utf8')).map((d) => {
    expect(d.errors).toEqual([]);
    return d.toJSON() as Manifest;
  });
}

/** The pod's command, run by sh as the container would run it, with the pod's environment. */
function runPod(
  container: Container,
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const podEnv = Object.fromEntries(container.env.map((e) => [e.name, env[e.name] ?? e.value]));
  const [shell, ...args] = container.command;
  return new Promise((done) => {
    execFile(
      shell!,
      args,
      { cwd: REPO_ROOT, env: { ...process.env, ...podEnv, ...env }, timeout: 90_000 },
      (error, stdout, stderr) => done({ code: error === null ? 0 : Number(error.code ?? 1), stdout, stderr }),
    );
  });
}

describe('the Kubernetes Indexed Job of a sharded sweep', () => {
  let dir: string;
  const [configMap, job] = manifests('sweep-indexed-job.yaml');
  const [merge] = manifests('sweep-merge-job.yaml');

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'perpbot-k8s-sweep-'));
    await recordSimInProcess({ dir: join(dir, 'rec'), markets: [1], minutes: 1, seed: 5, blockMs: 250 });
    // `perpbot` on PATH, as the image has it: the CLI this run compiled.
    mkdirSync(join(dir, 'bin'));
    writeFileSync(
      join(dir, 'bin', 'perpbot'),
      `#!/bin/sh\nexec "${process.execPath}" "${inject('perpbotMain')}" "$@"\n`,
    );
    chmodSync(join(dir, 'bin', 'perpbot'), 0o755);
    mkdirSync(join(dir, 'config'));
    writeFileSync(join(dir, 'config', 'sweep.yaml'), configMap?.data?.['sweep.yaml'] ?? '');
  }, 30_000);

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('is an Indexed Job whose shard count is its completions, with a ConfigMap perpbot loads as a sweep config', async () => {
    expect(configMap?.kind).toBe('ConfigMap');
    expect(job?.kind).toBe('Job');
    expect(job?.spec?.completionMode).toBe('Indexed');
    const container = job!.spec!.template.spec.containers[0]!;
    const shards = container.env.find((e) => e.name === 'SHARDS')?.value;
    expect(Number(shards)).toBe(job?.spec?.completions);
    expect(container.command.join(' ')).toContain('--shard "$((JOB_COMPLETION_INDEX + 1))/$SHARDS"');
    const config = await loadConfig({ text: configMap!.data!['sweep.yaml']!, env: {}, acknowledgeMainnet: false });
    expect(config.sweep?.params).toEqual({ spread_bps: [4, 8], requote_bps: [3, 6] });
    expect(merge?.kind).toBe('Job');
  });

  it("each pod's command runs its shard here, and the merge Job's command joins them: every variant once", async () => {
    const container = job!.spec!.template.spec.containers[0]!;
    const shards = Number(container.env.find((e) => e.name === 'SHARDS')?.value);
    const env = (index: number): Record<string, string> => ({
      PATH: `${join(dir, 'bin')}:${process.env['PATH'] ?? ''}`,
      JOB_COMPLETION_INDEX: String(index),
      RECORDING: join(dir, 'rec'),
      CONFIG: join(dir, 'config', 'sweep.yaml'),
      STUDY_DIR: join(dir, 'studies'),
    });
    // Two pods at a time: this machine has two cores.
    for (let index = 0; index < shards; index += 2) {
      const pods = await Promise.all(
        [index, index + 1].filter((i) => i < shards).map((i) => runPod(container, env(i))),
      );
      for (const pod of pods) expect(pod, pod.stderr).toMatchObject({ code: 0 });
    }
    expect(readdirSync(join(dir, 'studies')).sort()).toEqual(
      Array.from({ length: shards }, (_, i) => `shard-${i + 1}`),
    );
    const merged = await runPod(merge!.spec!.template.spec.containers[0]!, env(0));
    expect(merged.code, merged.stderr).toBe(0);
    expect(merged.stdout).toMatch(new RegExp(`merged ${shards} shard\\(s\\): 4 results, 4 reports copied`));
    const study = (await readFile(join(dir, 'studies', 'merged', 'study.jsonl'), 'utf8')).trim().split('\n');
    expect(study.slice(1).map((l) => (JSON.parse(l) as { job: string }).job)).toEqual([
      'v1/r1/full',
      'v2/r1/full',
      'v3/r1/full',
      'v4/r1/full',
    ]);
    expect(readFileSync(join(dir, 'studies', 'merged', 'best.yaml'), 'utf8')).toMatch(/^# perpbot sweep: variant v\d/);
  }, 120_000);
});
