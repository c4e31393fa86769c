import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/runtime/cli/runCli.js';
import { strategySource, testSource } from '../../../src/runtime/cli/commands/strategyTemplate.js';
import { isStrategyDefinition, type StrategyDefinition } from '../../../src/strategy/index.js';
import { strategyTest } from '../../../src/testing/index.js';
import { memoryIo } from './cliTestSupport.js';

const ROOT = resolve(new URL('../../..', import.meta.url).pathname);
const TEMP = mkdtempSync(join(tmpdir(), 'perpbot-new-'));
// Copies under strategies/ of this repository, importing the source entry instead of the package's.
const inRepo = (name: string) => join(ROOT, 'strategies', `.strategy-commands-${process.pid}-${name}.ts`);
const written: string[] = [];
afterAll(() => {
  rmSync(TEMP, { recursive: true, force: true });
  for (const file of written) rmSync(file, { force: true });
});

function writeInRepo(name: string, text: string): string {
  const file = inRepo(name);
  writeFileSync(file, text.replace("'perpbot/strategy'", "'../src/strategy/index.js'"));
  written.push(file);
  return file;
}

describe('perpbot new strategy', () => {
  it('writes the commented strategy and its test, prints the next steps and a config, and never overwrites', async () => {
    const m = memoryIo({ cwd: TEMP });
    expect(await runCli(['new', 'strategy', 'my-bot'], m.io)).toBe(0);
    const strategy = readFileSync(join(TEMP, 'strategies', 'myBot.ts'), 'utf8');
    expect(strategy).toContain("name: 'my-bot'");
    expect(strategy).toContain("from 'perpbot/strategy'");
    expect(readFileSync(join(TEMP, 'test', 'myBot.test.ts'), 'utf8')).toContain("from 'perpbot/testing'");
    expect(m.stdout()).toContain('module: strategies/myBot.ts');
    const again = memoryIo({ cwd: TEMP });
    expect(await runCli(['new', 'strategy', 'my-bot'], again.io)).toBe(2);
    expect(again.stderr()).toContain('strategies/myBot.ts already exists');
    const bad = memoryIo({ cwd: TEMP });
    expect(await runCli(['new', 'strategy', '1x'], bad.io)).toBe(2);
    expect(await runCli(['new', 'widget', 'x'], bad.io)).toBe(2);
    expect(bad.stderr()).toContain('unknown kind "widget"');
  });

  it('the template loads, trades in virtual time as its own test says, and flattens on stop', async () => {
    const file = writeInRepo('template', strategySource('template'));
    const module = (await import(file)) as { default: StrategyDefinition; decide: (s: string) => string };
    expect(isStrategyDefinition(module.default)).toBe(true);
    expect(module.decide('0.001')).toBe('sell');
    const t = await strategyTest(module.default, { params: { interval_ms: 10_000 } });
    await t.book(1, { bids: [['64990', '1']], asks: [['65010', '1']] });
    await t.mark(1, '65000');
    await t.advance(30_000);
    expect(t.intentsOf('placeMarket').map((i) => [i.side, i.size])).toEqual([
      ['buy', '0.001'],
      ['sell', '0.001'],
      ['buy', '0.001'],
    ]);
    await t.stop();
    expect(t.state.position(1)).toBeUndefined();
    // Three fills logged by run(); the close's fill comes after run() was unsubscribed.
    expect(t.logs.filter((l) => l.msg === 'filled')).toHaveLength(3);
    expect(t.outcomes.find((o) => o.kind === 'closePosition')?.type).toBe('accepted');
    // Three buys and sells, and the close: each order's filled event, the close's too.
    expect(t.orderEvents.filter((e) => e.type === 'filled')).toHaveLength(4);
    // The generated test asserts the same and imports what the template exports.
    expect(testSource('template')).toContain("import strategy, { decide } from '../strategies/template.js';");
  });
});

describe('perpbot check', () => {
  it('passes the template: types, module and default params', async () => {
    const file = writeInRepo('checked', strategySource('checked'));
    const m = memoryIo({ cwd: ROOT });
    expect(await runCli(['check', file], m.io)).toBe(0);
    expect(m.stdout()).toMatch(/^types {3}ok \(TypeScript \d/m);
    expect(m.stdout()).toContain('module  ok: strategy "checked"');
    expect(m.stdout()).toContain('params  ok (defaults {}): {"size":"0.001","interval_ms":10000}');
  }, 30_000);

  it('reports type errors (in the strategy and in a helper module of its own) and params that fail the schema, and exits 1', async () => {
    // The check skips perpbot's own sources, never the user's other files.
    const helper = writeInRepo('helper', 'export const halve = (size: string): number => size;\n');
    const helperName = helper.split(/[\\/]/).pop()!.replace(/\.ts$/, '.js');
    const broken = strategySource('broken')
      .replace(
        'return of(ctx.intents.placeMarket({ marketId, side, size: ctx.params.size }));',
        'return of(ctx.intents.placeMarket({ marketId, side, size: 5 }));',
      )
      .replace(
        "from 'perpbot/strategy';",
        `from 'perpbot/strategy';\nimport { halve } from './${helperName}';\nvoid halve;`,
      );
    const file = writeInRepo('broken', broken);
    expect(readFileSync(file, 'utf8')).toContain(`from './${helperName}'`);
    const m = memoryIo({ cwd: ROOT });
    expect(await runCli(['check', file, '--params', '{"size":"abc","interval_ms":5}'], m.io)).toBe(1);
    expect(m.stdout()).toMatch(/types {3}2 problem\(s\):\n/);
    expect(m.stdout()).toMatch(
      /strategy-commands-\d+-broken\.ts.*error TS2322: Type 'number' is not assignable to type 'string'/,
    );
    expect(m.stdout()).toMatch(
      /strategy-commands-\d+-helper\.ts.*error TS2322: Type 'string' is not assignable to type 'number'/,
    );
    expect(m.stdout()).toContain('params  --params.size: expected a decimal string such as "0.001"');
    expect(m.stdout()).toContain('params  --params.interval_ms:');
    expect(m.stdout()).toMatch(/: not ok\n$/);
    const missing = memoryIo({ cwd: ROOT });
    expect(await runCli(['check', 'strategies/nope.ts'], missing.io)).toBe(2);
  }, 30_000);

  it('reports a param key the schema does not know, with the nearest known one, and exits 1', async () => {
    const file = writeInRepo('typo', strategySource('typo'));
    const m = memoryIo({ cwd: ROOT });
    expect(await runCli(['check', file, '--params', '{"size":"0.001","intervl_ms":5000}'], m.io)).toBe(1);
    expect(m.stdout()).toContain('params  --params.intervl_ms: unknown key "intervl_ms" (did you mean "interval_ms"?)');
    expect(m.stdout()).toMatch(/: not ok\n$/);
  }, 30_000);
});
