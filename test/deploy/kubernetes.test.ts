import { readFileSync } from 'node:fs';
import { dirname, join, posix, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { loadConfig } from '../../src/runtime/config/loadConfig.js';

/**
 * The Kubernetes manifests and the Dockerfile in deploy/, checked against the bot's own config
 * (no cluster and no image build here, so this is what runs): the ConfigMap's bot.yaml passes
 * perpbot's config loader, and the ports, probe paths, journal volume, replica count and keys
 * agree with it. test/e2e/containerProbe.test.ts runs the probe script against a real bot.
 */
const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '../..');
const K8S = join(ROOT, 'deploy', 'kubernetes');

type Doc = { kind: string; metadata: { name: string; labels?: Record<string, string> }; [key: string]: unknown };
const docs = (file: string): Doc[] =>
  parseAllDocuments(readFileSync(join(K8S, file), 'utf8')).map((d) => {
    expect(d.errors, file).toEqual([]);
    return d.toJS() as Doc;
  });
const account = docs('perpbot-desk-a.yaml');
const shared = docs('perpbot-shared.yaml');
const one = <T>(kind: string, from: Doc[] = account): T => {
  const found = from.filter((d) => d.kind === kind);
  expect(found.length, kind).toBe(1);
  return found[0] as unknown as T;
};

interface Container {
  name: string;
  args: string[];
  env: { name: string; valueFrom?: { secretKeyRef?: { name: string; key: string } }; value?: string }[];
  envFrom: { configMapRef: { name: string } }[];
  ports: { name: string; containerPort: number }[];
  startupProbe: { exec: { command: string[] } };
  livenessProbe: { exec: { command: string[] } };
  readinessProbe: { exec: { command: string[] } };
  volumeMounts: { name: string; mountPath: string; readOnly?: boolean }[];
  securityContext: { allowPrivilegeEscalation: boolean; readOnlyRootFilesystem: boolean };
}
interface StatefulSet {
  spec: {
    replicas: number;
    serviceName: string;
    selector: { matchLabels: Record<string, string> };
    template: {
      metadata: { labels: Record<string, string>; annotations: Record<string, string> };
      spec: {
        terminationGracePeriodSeconds: number;
        securityContext: { runAsNonRoot: boolean; runAsUser: number };
        containers: Container[];
        volumes: { name: string; configMap?: { name: string } }[];
      };
    };
    volumeClaimTemplates: { metadata: { name: string }; spec: { accessModes: string[] } }[];
  };
}
const set = one<StatefulSet>('StatefulSet');
const pod = set.spec.template.spec;
const container = pod.containers[0]!;
const configMap = one<{ metadata: { name: string }; data: Record<string, string> }>('ConfigMap');
const venue = one<{ data: Record<string, string> }>('ConfigMap', shared);
const configPath = container.args[container.args.indexOf('--config') + 1] ?? '';
const config = await loadConfig({ text: configMap.data[posix.basename(configPath)] ?? '', env: venue.data });
const controlPort = config.control?.port;

/** The URL a probe's exec command asks probe.mjs for. */
const probeUrl = (probe: { exec: { command: string[] } }): URL => {
  expect(probe.exec.command.slice(0, 2)).toEqual(['node', '/opt/perpbot/probe.mjs']);
  return new URL(probe.exec.command[2] ?? '');
};
const dockerfile = readFileSync(join(ROOT, 'deploy', 'docker', 'Dockerfile'), 'utf8');

describe('the Kubernetes manifests of one account', () => {
  it("mount a config perpbot's loader accepts, at the path the container starts with", () => {
    expect(container.args.slice(0, 2)).toEqual(['start', '--config']);
    const mount = container.volumeMounts.find((m) => m.mountPath === posix.dirname(configPath));
    expect(mount?.readOnly).toBe(true);
    expect(pod.volumes.find((v) => v.name === mount?.name)?.configMap?.name).toBe(configMap.metadata.name);
    expect(config.venue.rest_url).toBe(venue.data['PERPBOT_REST_URL']);
  });

  it('run exactly one replica, with the journal on a ReadWriteOnce volume of its own', () => {
    expect(set.spec.replicas).toBe(1);
    const journalDir = posix.dirname(config.journal.path);
    const mount = container.volumeMounts.find((m) => m.mountPath === journalDir);
    expect(mount, `a volume at ${journalDir}`).toBeDefined();
    const claim = set.spec.volumeClaimTemplates.find((c) => c.metadata.name === mount?.name);
    expect(claim?.spec.accessModes).toEqual(['ReadWriteOnce']);
  });

  it('expose the control port the config listens on, beyond loopback, in the container, Service, annotations and probes', () => {
    expect(config.control?.host).toBe('0.0.0.0');
    expect(container.ports).toEqual([{ name: 'control', containerPort: controlPort }]);
    const service = one<{
      spec: { clusterIP: string; selector: Record<string, string>; ports: { name: string; port: number }[] };
    }>('Service');
    expect(service.spec.ports).toEqual([{ name: 'control', port: controlPort, targetPort: 'control' }]);
    expect(service.spec.selector).toEqual(set.spec.selector.matchLabels);
    expect(set.spec.serviceName).toBe((service as unknown as Doc).metadata.name);
    expect(set.spec.template.metadata.annotations).toEqual({
      'prometheus.io/scrape': 'true',
      'prometheus.io/port': String(controlPort),
      'prometheus.io/path': '/metrics',
    });
    for (const probe of [container.startupProbe, container.livenessProbe, container.readinessProbe])
      expect(probeUrl(probe).port).toBe(String(controlPort));
  });

  it('probe /health for liveness and start-up, /ready for readiness', () => {
    expect(probeUrl(container.startupProbe).pathname).toBe('/health');
    expect(probeUrl(container.livenessProbe).pathname).toBe('/health');
    expect(probeUrl(container.readinessProbe).pathname).toBe('/ready');
  });

  it('take the keys and the control token from Secrets, and hold no key', () => {
    const fromSecret = Object.fromEntries(container.env.map((e) => [e.name, e.valueFrom?.secretKeyRef?.name]));
    expect(fromSecret).toEqual({
      PERPBOT_ACCOUNT_KEY: 'perpbot-desk-a',
      PERPBOT_SIGNER_KEY: 'perpbot-desk-a',
      [config.control?.token_env ?? '']: 'perpbot-control',
    });
    for (const file of ['perpbot-desk-a.yaml', 'perpbot-shared.yaml'])
      expect(readFileSync(join(K8S, file), 'utf8')).not.toMatch(/0x[0-9a-fA-F]{64}/);
  });

  it('run as a non-root user with a read-only root, and give the shutdown its time', () => {
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(pod.securityContext.runAsUser).not.toBe(0);
    expect(container.securityContext).toMatchObject({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true });
    expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(config.shutdown.timeout_ms);
  });

  it("have a ServiceMonitor on the Services' control port, with the token, as job perpbot", () => {
    const monitor = one<{
      spec: {
        selector: { matchLabels: Record<string, string> };
        endpoints: {
          port: string;
          path: string;
          authorization: { credentials: { name: string } };
          relabelings: unknown[];
        }[];
      };
    }>('ServiceMonitor', shared);
    const service = one<Doc>('Service');
    for (const [k, v] of Object.entries(monitor.spec.selector.matchLabels))
      expect(service.metadata.labels?.[k]).toBe(v);
    expect(monitor.spec.endpoints[0]).toMatchObject({
      port: 'control',
      path: '/metrics',
      authorization: { credentials: { name: 'perpbot-control' } },
      relabelings: [{ targetLabel: 'job', replacement: 'perpbot' }],
    });
  });
});

describe('the Dockerfile', () => {
  const stages = [...dockerfile.matchAll(/^FROM (\S+)(?: AS (\S+))?$/gm)];
  // The last stage, without its comments: what the image runs.
  const finalStage = dockerfile
    .slice(dockerfile.lastIndexOf('\nFROM '))
    .split('\n')
    .filter((line) => !line.startsWith('#'))
    .join('\n');

  it('builds in one stage and runs from another', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(finalStage).toMatch(/^COPY --from=build /m);
    expect(finalStage).not.toMatch(/g\+\+|npm ci/);
  });

  it('runs as a non-root user, its entry point perpbot itself (not npx)', () => {
    expect(/^USER (\S+)$/m.exec(finalStage)?.[1]).toMatch(/^(?!root$|0$)/);
    expect(finalStage).toContain('ENTRYPOINT ["node", "/opt/perpbot/node_modules/perpbot/bin/perpbot.js"]');
    expect(finalStage).not.toContain('npx');
  });

  it('has a health check through the same probe, and exposes and mounts what the manifests use', () => {
    const health = /^HEALTHCHECK .*\n?\s*CMD \[(.+)\]$/m.exec(finalStage)?.[1] ?? '';
    const command = JSON.parse(`[${health}]`) as string[];
    expect(command.slice(0, 2)).toEqual(container.livenessProbe.exec.command.slice(0, 2));
    expect(new URL(command[2] ?? '').pathname).toBe('/health');
    expect(/^EXPOSE (\d+)$/m.exec(finalStage)?.[1]).toBe(String(controlPort));
    expect(/^VOLUME (\S+)$/m.exec(finalStage)?.[1]).toBe(posix.dirname(config.journal.path));
    expect(/^CMD \["start", "--config", "([^"]+)"\]$/m.exec(finalStage)?.[1]).toBe(configPath);
  });
});
