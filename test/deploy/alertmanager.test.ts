import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { amtool } from './support/promtool.js';

/**
 * deploy/prometheus/alertmanager.yml as Alertmanager reads it (amtool): valid, every perpbot alert
 * routed by its severity (critical to the pager, warning to chat), and its inhibitions naming only
 * alerts the rules define.
 */
const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '../..');
const CONFIG = join(ROOT, 'deploy', 'prometheus', 'alertmanager.yml');
const rules = parse(readFileSync(join(ROOT, 'deploy', 'prometheus', 'rules', 'perpbot.rules.yml'), 'utf8')) as {
  groups: { rules: { alert?: string; labels?: { severity?: string } }[] }[];
};
const alerts = rules.groups.flatMap((g) => g.rules).filter((r) => r.alert !== undefined);
const RECEIVER = { critical: 'desk-pager', warning: 'desk-chat' } as const;

describe('the Alertmanager config', () => {
  it('passes amtool check-config', async () => {
    const run = await amtool(['check-config', CONFIG]);
    expect(run.stdout + run.stderr).toContain('SUCCESS');
    expect(run.code).toBe(0);
  });

  it.each(alerts.map((a) => [a.alert, a.labels?.severity] as const))(
    'routes %s (%s) to its receiver',
    async (alert, severity) => {
      const receiver = RECEIVER[severity as keyof typeof RECEIVER];
      const run = await amtool([
        'config',
        'routes',
        'test',
        `--config.file=${CONFIG}`,
        `--verify.receivers=${receiver}`,
        `alertname=${alert}`,
        `severity=${severity}`,
        'account=0xaaaa',
      ]);
      expect(run.stdout.trim()).toBe(receiver);
      expect(run.code).toBe(0);
    },
  );

  it('inhibits only alerts the rules define', () => {
    const config = parse(readFileSync(CONFIG, 'utf8')) as {
      inhibit_rules: { source_matchers: string[]; target_matchers: string[] }[];
    };
    const names = new Set(alerts.map((a) => a.alert));
    for (const rule of config.inhibit_rules)
      for (const matcher of [...rule.source_matchers, ...rule.target_matchers]) {
        const value = /^alertname(=~|=|!=)"(.+)"$/.exec(matcher);
        if (value === null) continue;
        if (value[1] === '=~') {
          const pattern = new RegExp(`^(?:${value[2]})$`);
          expect(
            [...names].some((n) => pattern.test(n!)),
            matcher,
          ).toBe(true);
          for (const part of value[2]!.split('|').filter((p) => /^\w+$/.test(p)))
            expect(names, matcher).toContain(part);
        } else expect(names, matcher).toContain(value[2]);
      }
  });
});
