import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cancel, placeLimit } from '../../src/engine/intents/intentBuilders.js';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import { journalBotConfig, prepareProbeRoot, startBotOnSim, until } from './support/journalBot.js';
import { startSecretEchoProxy, type SecretEchoProxy } from './support/secretEchoProxy.js';
import { fundedAccount, grantAllowance, type SimAccount } from './support/simAccount.js';
import { engineOnSim } from './support/engineOnSim.js';

/** Every way a hex key can be written, and a 20-character piece of each (a cut-off echo). */
function hexForms(key: string): string[] {
  const bare = key.slice(2);
  return [key, bare, bare.toUpperCase(), bare.slice(8, 28), bare.slice(8, 28).toUpperCase()];
}

function base64Forms(value: string): string[] {
  const hex = Buffer.from(value, 'base64').toString('hex');
  return [value, value.slice(10, 30), hex, hex.slice(10, 30)];
}

function expectNowhere(lines: readonly string[], secrets: readonly string[]): void {
  for (const secret of secrets) {
    const leaks = lines.filter((line) => line.includes(secret));
    expect(leaks, `"${secret}" leaked`).toEqual([]);
  }
}

/** Cancels an order from outside the bot (no journal): it leaves the book while the bot is down. */
async function cancelFromOutside(who: SimAccount, orderId: string): Promise<void> {
  const engine = engineOnSim(who);
  await engine.start();
  const outcome = await engine.execute(
    cancel({ intentId: 'outside', strategy: 'x', marketId: 1, target: { orderId } }),
  );
  await engine.stop();
  expect(outcome.type).toBe('accepted');
}

describe('log redaction across a bot run (runBot on the simulator, a venue that echoes secrets)', () => {
  let sim: RunningSim;
  let proxy: SecretEchoProxy;
  let dir: string;
  beforeEach(async () => {
    sim = await startSim({ port: 0, blockMs: 0, registrationLagMs: 0 });
    proxy = await startSecretEchoProxy(sim.restUrl);
    dir = mkdtempSync(join(tmpdir(), 'perpbot-log-redaction-'));
    prepareProbeRoot(dir);
  });
  afterEach(async () => {
    await proxy.close();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('permit mode: keys and permit signatures never appear; order ids and tx hashes do, verbatim', async () => {
    const who = await fundedAccount(sim);
    const config = journalBotConfig(dir);
    // The probe's first bid is refused with its own signature and the signer key echoed back;
    // its second bid goes through.
    proxy.refusePlaces((seen) => `signer key ${who.signerKey.slice(2).toUpperCase()}; permit ${seen.signature}`);
    const run1 = await startBotOnSim(sim, who, config, dir, { restUrl: proxy.url });
    let placedIntent: string;
    try {
      await until(() => proxy.placed.length === 1 && run1.lines.some((l) => l.includes('intent failed')));
      placedIntent = run1.engine.tracker.openOrders({ strategy: 'probe' })[0]!.intentId;
      // A placement of the test's own, refused with the account key and the signature in hex.
      proxy.refusePlaces(
        (seen) => `account key ${who.accountKey}; sig 0x${Buffer.from(seen.signature!, 'base64').toString('hex')}`,
      );
      const refused = await run1.engine.execute(
        placeLimit({
          intentId: 'manual-1',
          strategy: 'manual',
          marketId: 1,
          side: 'buy',
          size: '0.0005',
          price: '62000',
        }),
      );
      expect(refused.type).toBe('failed');
      await until(() => run1.lines.filter((l) => l.includes('intent failed')).length === 2);
    } finally {
      await run1.stop();
    }
    const { orderId, txHash } = proxy.placed[0]!;

    // While the bot is down its order is cancelled; the next start's reconciliation reports it.
    await cancelFromOutside(who, orderId);
    const run2 = await startBotOnSim(sim, who, config, dir, { restUrl: proxy.url });
    await run2.stop();

    const lines = [...run1.lines, ...run2.lines];
    expect(proxy.echoed).toHaveLength(2);
    const failed = run1.lines.filter((l) => l.includes('intent failed'));
    expect(failed.every((l) => (l.match(/\[redacted\]/g) ?? []).length >= 2)).toBe(true);
    expectNowhere(lines, [
      ...hexForms(who.accountKey),
      ...hexForms(who.signerKey),
      ...proxy.echoed.flatMap((seen) => base64Forms(seen.signature!)),
    ]);
    expect(lines.some((l) => l.includes('"msg":"order placed"') && l.includes(orderId) && l.includes(txHash))).toBe(
      true,
    );
    const reconciled = run2.lines.find((l) => l.includes('left the book while unobserved'));
    expect(reconciled).toContain(`order ${orderId} (intent ${placedIntent})`);
    expect(lines.some((l) => l.includes('order [redacted]'))).toBe(false);
  }, 60_000);

  it('JWT mode: the bearer JWT and the refresh token never appear, even echoed by the venue', async () => {
    const who = await fundedAccount(sim);
    await grantAllowance(who);
    proxy.refusePlaces((seen) => `session ${seen.bearer}; refresh ${proxy.tokens.at(-1)?.refresh}`);
    const bot = await startBotOnSim(sim, who, journalBotConfig(dir, 'auth: { mode: jwt }'), dir, {
      restUrl: proxy.url,
    });
    try {
      await until(() => proxy.placed.length === 1 && bot.lines.some((l) => l.includes('intent failed')));
    } finally {
      await bot.stop();
    }
    expect(proxy.echoed[0]?.bearer).toMatch(/^eyJ/);
    expect(proxy.tokens.length).toBeGreaterThan(0);
    expect(bot.lines.find((l) => l.includes('intent failed'))).toMatch(/session \[redacted\]; refresh \[redacted\]/);
    expectNowhere(bot.lines, [
      ...hexForms(who.accountKey),
      ...hexForms(who.signerKey),
      ...proxy.tokens.flatMap((t) => [t.access, t.access.slice(-30), t.refresh, t.refresh.slice(5, 25)]),
    ]);
    expect(bot.lines.some((l) => l.includes(proxy.placed[0]!.orderId))).toBe(true);
  }, 60_000);
});
