import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { shortId } from '../../src/core/shortId.js';
import { runCli } from '../../src/runtime/cli/runCli.js';
import { memoryIo } from '../runtime/cli/cliTestSupport.js';
import { until } from './support/journalBot.js';
import { prepareServiceRoot } from './support/serviceBot.js';

const dir = mkdtempSync(join(tmpdir(), 'perpbot-status-live-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The default profile's shape: the embedded simulator, a journal under data/, no control: section
// (--control-port turns it on).
const CONFIG = `
venue: { profile: sim }
engine: { registration_retry: { attempts: 30, base_ms: 50 } }
risk:
  max_order_notional: "100000"
  max_position_per_market: "1000000"
  max_open_orders: 20
  max_actions_per_second: 50
  kill_switch: { max_loss: "500" }
strategies:
  - name: probe
    module: strategies/serviceProbe.ts
    markets: [1]
    params: { size: "0.0005", taker_size: "0.001", bids: ["60000"] }
logging: { level: info, pretty: false }
journal: { path: data/journal.sqlite }
sim: { block_ms: 50, registration_lag_ms: 100 }
`;

describe('perpbot status while perpbot start runs', () => {
  it('shows the running bot’s live state; without a bot it reads the venue as before', async () => {
    prepareServiceRoot(dir);
    writeFileSync(join(dir, 'bot.yaml'), CONFIG);
    const start = memoryIo({ cwd: dir });
    const exit = runCli(['start', '--config', 'bot.yaml', '--control-port', '0'], start.io);
    await until(() => start.stdout().includes('"msg":"bot running"') || start.stdout().includes('"level":50'), 30_000);
    expect(start.stdout()).toContain('"msg":"control server listening"');

    const status = memoryIo({ cwd: dir });
    let text = '';
    await until(async () => {
      status.io.stdout.write('\u0000');
      expect(await runCli(['status', '--config', 'bot.yaml'], status.io)).toBe(0);
      text = status.stdout().split('\u0000').pop() ?? '';
      return text.includes('positions:\n') && !text.includes('positions: none');
    }, 15_000);
    expect(text).toMatch(
      /^bot {6}running at http:\/\/127\.0\.0\.1:\d+ \(pid \d+, up \d+s\): live state from the bot\n/,
    );
    expect(text).toMatch(/\nmode {5}trading \(ready\)\n/);
    expect(text).toMatch(/\n1 +buy +0\.001 /);
    expect(text).toMatch(/\nprobe +1 +buy +0\.0005 +60000\.0 +0 +open /);
    // Money as the bot's display gives it: USDC to 6 places, one statement that adds up.
    expect(text).toMatch(
      /\nbalance {2}\d+\.\d{6} USDC \(cross margin; openingBalance \d+\.\d{6}, balanceChange -?\d+\.\d{6} = realisedPnl /,
    );
    expect(text).toMatch(/\nequity {3}\d+\.\d{6} USDC = balance \+ unrealisedPnl -?\d+\.\d{6} {3}netPnl -?\d+\.\d{6} /);
    expect(text).toContain('strategies:\nstrategy');
    // The probe's resting bid is its wanted order: its quote uptime per market, as /api/status has it.
    expect(text).toMatch(/quote uptime/);
    expect(text).toMatch(/\nprobe .* 1: \d+\.\d%/);

    const json = memoryIo({ cwd: dir });
    expect(await runCli(['status', '--config', 'bot.yaml', '--json'], json.io)).toBe(0);
    const parsed = JSON.parse(json.stdout()) as {
      source: string;
      mode: string;
      openOrders: { price: string; orderId: string }[];
      account: string;
    };
    expect(parsed).toMatchObject({ source: 'bot', mode: 'trading' });
    expect(parsed.openOrders.map((o) => o.price)).toEqual(['60000']);
    // The table's order id is the short form (core/shortId), the JSON's the whole id.
    const orderId = parsed.openOrders[0]!.orderId;
    expect(orderId).toMatch(/^0x[0-9a-f]{48}$/);
    expect(text).toMatch(new RegExp(`\\nprobe +1 +buy +0\\.0005 +60000\\.0 +0 +open +${shortId(orderId)}\\n`));

    start.abort();
    expect(await exit).toBe(0);
    // No bot: status reads the venue as it always did, and profile sim has none outside perpbot start.
    const after = memoryIo({ cwd: dir });
    expect(await runCli(['status', '--config', 'bot.yaml'], after.io)).not.toBe(0);
    expect(after.stdout()).not.toContain('live state from the bot');
    expect(after.stderr()).toContain('perpbot status needs a running venue');
  }, 60_000);
});
