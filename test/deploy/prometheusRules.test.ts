import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { promtool } from './support/promtool.js';
import { exposedNames, metricNamesIn } from './support/promqlNames.js';

/**
 * The shipped alerting and recording rules (deploy/prometheus/rules), tested as code: promtool
 * checks them and runs each alert's own test file; every alert has a firing and a silent case, and
 * both are shown to matter (the tests fail against a copy where the alert never fires, and against
 * one where it always does); every alert names its severity, a summary and a runbook section of
 * docs/operations.md that exists; every metric a rule reads is one the bot exposes.
 */
const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '../..');
const PROMETHEUS_DIR = join(ROOT, 'deploy', 'prometheus');
const RULES = join(PROMETHEUS_DIR, 'rules', 'perpbot.rules.yml');
const TESTS = join(PROMETHEUS_DIR, 'tests');

interface Rule {
  readonly alert?: string;
  readonly record?: string;
  readonly expr: string;
  readonly labels?: Record<string, string>;
  readonly annotations?: Record<string, string>;
}
interface AlertTest {
  readonly alertname: string;
  readonly exp_alerts: readonly unknown[];
}

const groups = (parse(readFileSync(RULES, 'utf8')) as { groups: { rules: Rule[] }[] }).groups;
const rules = groups.flatMap((g) => g.rules);
const alerts = rules.filter((r): r is Rule & { alert: string } => r.alert !== undefined);
const testFile = (alert: string) => join(TESTS, `${alert}.test.yml`);
const alertTests = (alert: string): AlertTest[] =>
  (parse(readFileSync(testFile(alert), 'utf8')) as { tests: { alert_rule_test?: AlertTest[] }[] }).tests.flatMap(
    (t) => t.alert_rule_test ?? [],
  );

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to dashes. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}
const docAnchors = new Set(
  [...readFileSync(join(ROOT, 'docs', 'operations.md'), 'utf8').matchAll(/^#{1,6} (.+)$/gm)].map((m) =>
    anchorOf(m[1]!),
  ),
);

const scratch: string[] = [];
afterAll(() => scratch.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** promtool test rules on `alert`'s test file against a copy of the rules whose `alert` has `expr`. */
async function testAgainstMutant(alert: string, expr: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'perpbot-rules-'));
  scratch.push(dir);
  cpSync(join(PROMETHEUS_DIR, 'rules'), join(dir, 'rules'), { recursive: true });
  cpSync(testFile(alert), join(dir, 'tests', `${alert}.test.yml`), { recursive: true });
  const mutant = {
    groups: groups.map((g) => ({ ...g, rules: g.rules.map((r) => (r.alert === alert ? { ...r, expr } : r)) })),
  };
  writeFileSync(join(dir, 'rules', 'perpbot.rules.yml'), JSON.stringify(mutant));
  const run = await promtool(['test', 'rules', join(dir, 'tests', `${alert}.test.yml`)]);
  expect(run.code, `${alert} with expr ${expr}: its tests should fail`).not.toBe(0);
  return run.stdout + run.stderr;
}

describe('the Prometheus rules in deploy/prometheus', () => {
  it('pass promtool check rules', async () => {
    const run = await promtool(['check', 'rules', RULES]);
    expect(run.stdout + run.stderr).toContain('SUCCESS');
    expect(run.code).toBe(0);
  });

  it("pass every alert's promtool unit tests", async () => {
    const files = readdirSync(TESTS)
      .filter((f) => f.endsWith('.test.yml'))
      .map((f) => join(TESTS, f));
    const run = await promtool(['test', 'rules', ...files]);
    expect(run.stdout + run.stderr, run.stdout + run.stderr).not.toContain('FAILED');
    expect(run.code).toBe(0);
  });

  it('has one test file per alert and no test file without its alert', () => {
    const tested = readdirSync(TESTS)
      .filter((f) => f.endsWith('.test.yml'))
      .map((f) => f.replace(/\.test\.yml$/, ''));
    expect(tested.sort()).toEqual(alerts.map((a) => a.alert).sort());
  });

  it.each(alerts.map((a) => [a.alert, a] as const))(
    '%s has a severity, a summary and a runbook section',
    (_, alert) => {
      expect(['critical', 'warning']).toContain(alert.labels?.['severity']);
      expect(alert.annotations?.['summary']).toMatch(/\S{10,}/);
      const runbook = /^docs\/operations\.md#(.+)$/.exec(alert.annotations?.['runbook_url'] ?? '');
      expect(runbook, 'runbook_url: docs/operations.md#<section>').not.toBeNull();
      expect(docAnchors, `docs/operations.md has no heading for #${runbook![1]}`).toContain(runbook![1]);
    },
  );

  it.each(alerts.map((a) => [a.alert] as const))(
    '%s has a firing and a silent case, and each one fails against a rule that is wrong',
    async (alert) => {
      expect(existsSync(testFile(alert)), `${testFile(alert)} is missing`).toBe(true);
      const cases = alertTests(alert).filter((t) => t.alertname === alert);
      expect(cases.filter((t) => t.exp_alerts.length > 0).length, 'firing cases').toBeGreaterThan(0);
      expect(cases.filter((t) => t.exp_alerts.length === 0).length, 'silent cases').toBeGreaterThan(0);
      // Never firing: the firing case notices. Always firing (one series per label set the test feeds): the silent case does.
      expect(await testAgainstMutant(alert, 'vector(1) == 0')).toMatch(/got:\s*\[\]/);
      expect(await testAgainstMutant(alert, `group by (job, instance) ({__name__=~"up|perpbot_info"})`)).toMatch(
        /exp:\s*\[\]/,
      );
    },
  );

  it('read only metrics a bot exposes (and up)', async () => {
    const exposed = await exposedNames();
    exposed.add('up');
    for (const rule of rules)
      for (const name of metricNamesIn(rule.expr))
        expect(exposed, `${rule.alert ?? rule.record} reads ${name}`).toContain(name);
  });
});
