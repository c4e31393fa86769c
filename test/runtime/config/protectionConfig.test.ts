import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/runtime/config/loadConfig.js';

const base = (strategies: string, extra = ''): string => `
venue: { profile: sim }
risk: { max_order_notional: "1000", max_position_per_market: "5000", max_open_orders: 10, kill_switch: { max_loss: "100" } }
strategies:
${strategies}
${extra}`;

const maker = (protection: string, name = 'mm', markets = '[1]'): string =>
  `  - { name: ${name}, module: strategies/marketMaker.ts, markets: ${markets}${protection === '' ? '' : `, protection: ${protection}`} }`;

describe('protection: in the config', () => {
  it('reads stop_loss_bps, take_profit_bps and trigger (default mark), and shutdown.protection (default keep)', async () => {
    const config = await loadConfig({ text: base(maker('{ stop_loss_bps: 50, take_profit_bps: 120 }')), env: {} });
    expect(config.strategies[0]?.protection).toEqual({ stop_loss_bps: 50, take_profit_bps: 120, trigger: 'mark' });
    expect(config.shutdown.protection).toBe('keep');
    expect(config.protection).toEqual({ venue_read_ms: 2000, grace_ms: 10_000, on_kill_switch: 'keep' });
    const last = await loadConfig({
      text: base(maker('{ take_profit_bps: 10, trigger: last }'), 'shutdown: { protection: cancel }'),
      env: {},
    });
    expect(last.strategies[0]?.protection).toEqual({ take_profit_bps: 10, trigger: 'last' });
    expect(last.shutdown.protection).toBe('cancel');
  });

  it('refuses an empty protection, an out-of-range distance, an unknown trigger or key', async () => {
    await expect(loadConfig({ text: base(maker('{}')), env: {} })).rejects.toThrow(
      /expected stop_loss_bps, take_profit_bps or both/,
    );
    await expect(loadConfig({ text: base(maker('{ stop_loss_bps: 10000 }')), env: {} })).rejects.toThrow(
      /stop_loss_bps/,
    );
    await expect(loadConfig({ text: base(maker('{ stop_loss_bps: 50, trigger: index }')), env: {} })).rejects.toThrow(
      /trigger/,
    );
    await expect(loadConfig({ text: base(maker('{ stop_los_bps: 50 }')), env: {} })).rejects.toThrow(/stop_los_bps/);
  });

  it('refuses a protected strategy sharing a market with another strategy', async () => {
    const text = base(`${maker('{ stop_loss_bps: 50 }')}\n${maker('', 'other', '[1, 2]')}`);
    await expect(loadConfig({ text, env: {} })).rejects.toThrow(
      /market 1 is traded by mm, other: a strategy with protection: must trade its markets alone/,
    );
    // Unprotected strategies may still share a market.
    const shared = await loadConfig({ text: base(`${maker('', 'a')}\n${maker('', 'b')}`), env: {} });
    expect(shared.strategies).toHaveLength(2);
  });
});
