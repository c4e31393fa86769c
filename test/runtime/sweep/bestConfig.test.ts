import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/runtime/config/loadConfig.js';
import { bestConfigYaml } from '../../../src/runtime/sweep/bestConfig.js';

describe('best.yaml', () => {
  it("is the study's config with the chosen variant's params, no sweep section, its comments kept", async () => {
    const text = `${readFileSync('config/default.yaml', 'utf8')}\nsweep:\n  params:\n    spread_bps: [2, 8]\n`;
    const best = bestConfigYaml(
      text,
      'market-maker',
      { id: 'v2', params: { spread_bps: 8, size: '0.002' } },
      'the best of 2',
    );
    expect(best.startsWith('# perpbot sweep: variant v2 (spread_bps=8, size=0.002)\n# the best of 2\n')).toBe(true);
    expect(best).toContain("# Checked by the strategy's own schema when it loads");
    const config = await loadConfig({ text: best, env: {}, acknowledgeMainnet: false });
    expect(config.sweep).toBeUndefined();
    expect(config.strategies[0]!.params).toMatchObject({ spread_bps: 8, size: '0.002', requote_bps: 3 });
    expect(() => bestConfigYaml(text, 'nobody', { id: 'v1', params: {} }, '')).toThrow(/no strategy named nobody/);
  });
});
