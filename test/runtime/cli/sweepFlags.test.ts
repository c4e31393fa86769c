import { describe, expect, it } from 'vitest';
import { paramsFlag, shardFlag, sweepSectionOf } from '../../../src/runtime/cli/commands/sweepFlags.js';
import { loadConfig } from '../../../src/runtime/config/loadConfig.js';
import type { ParsedArgs } from '../../../src/runtime/cli/commandSpec.js';
import { parseCommandArgs } from '../../../src/runtime/cli/parseCommandArgs.js';
import { sweepCommand } from '../../../src/runtime/cli/commands/sweepCommand.js';

const args = (flags: Record<string, string>): ParsedArgs => ({ flags, positionals: ['rec'] });
const config = await loadConfig({ path: 'config/default.yaml', env: {}, acknowledgeMainnet: false });

describe('perpbot sweep flags', () => {
  it('--param: each value takes the type the param has in the config (a quoted size stays a decimal string)', () => {
    const params = paramsFlag(['spread_bps=2,4', 'size=0.001,0.002', 'post_only=true,false', 'requote_bps=1..5:2'], {
      spread_bps: 4,
      size: '0.001',
      post_only: true,
      requote_bps: 3,
    });
    expect(params).toEqual({
      spread_bps: [2, 4],
      size: ['0.001', '0.002'],
      post_only: [true, false],
      requote_bps: { min: 1, max: 5, step: 2 },
    });
    expect(paramsFlag(['size=0.001..0.003:0.001'], { size: '0.001' })).toEqual({
      size: { min: '0.001', max: '0.003', step: '0.001' },
    });
    // Left to the strategy's default: read as a number, a boolean, or text.
    expect(paramsFlag(['a=1.5', 'b=true', 'c=fast'], {})).toEqual({ a: [1.5], b: [true], c: ['fast'] });
    expect(() => paramsFlag(['spread_bps'], {})).toThrow(/--param: cannot read "spread_bps"; expected name=values/);
    expect(() => paramsFlag(['spread_bps=2', 'spread_bps=4'], {})).toThrow(/--param: spread_bps is given twice/);
  });

  it('--param is given once per param, in the command line the issue names, and goes with --params', () => {
    const parsed = parseCommandArgs(sweepCommand, [
      'rec',
      '--param',
      'spread_bps=2,4',
      '--param=requote_bps=2..6:2',
      '--params',
      'size=0.001,0.002',
      '--out',
      'out',
    ]);
    expect(parsed.repeated).toEqual({ param: ['spread_bps=2,4', 'requote_bps=2..6:2'] });
    expect(sweepSectionOf(config, parsed).params).toEqual({
      spread_bps: [2, 4],
      requote_bps: { min: 2, max: 6, step: 2 },
      size: ['0.001', '0.002'],
    });
    expect(() => parseCommandArgs(sweepCommand, ['rec', '--param'])).toThrow(/--param needs a value/);
  });

  it('--shard I/N with 1 <= I <= N', () => {
    expect(shardFlag(args({ shard: '2/8' }))).toEqual({ index: 2, count: 8 });
    expect(shardFlag(args({}))).toBeUndefined();
    for (const bad of ['0/2', '3/2', '1', 'a/b'])
      expect(() => shardFlag(args({ shard: bad }))).toThrow(/--shard: invalid value/);
  });

  it('the flags go over the config: objective, constraints, sample, walk-forward; a config without a sweep needs --params', () => {
    const section = sweepSectionOf(
      config,
      args({
        params: 'spread_bps=2,4',
        objective: 'max_drawdown',
        constraints: 'max_drawdown<=50, fills>=10',
        sample: '3',
        train: '30m',
        test: '10m',
        top: '2',
        workers: '1',
      }),
    );
    expect(section).toEqual({
      params: { spread_bps: [2, 4] },
      sample: { count: 3, seed: 1 },
      objective: 'max_drawdown',
      constraints: ['max_drawdown <= 50', 'fills >= 10'],
      walk_forward: { train: 1_800_000, test: 600_000 },
      top: 2,
      workers: 1,
    });
    expect(() => sweepSectionOf(config, args({}))).toThrow(/nothing to sweep/);
    expect(() => sweepSectionOf(config, args({ params: 'x=1', objective: 'profit' }))).toThrow(
      /--objective: invalid value/,
    );
    expect(() => sweepSectionOf(config, args({ params: 'x=1', constraints: 'drawdown<3' }))).toThrow(
      /invalid constraint/,
    );
    expect(() => sweepSectionOf(config, args({ params: 'x=1', train: '30m' }))).toThrow(
      /needs both --train and --test/,
    );
    expect(() => sweepSectionOf(config, args({ params: 'x=1', strategy: 'nope' }))).toThrow(/no strategy named "nope"/);
  });
});
