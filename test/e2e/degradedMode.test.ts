import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cancel, placeLimit } from '../../src/engine/intents/intentBuilders.js';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import { startFaultyRestProxy, type FaultyRestProxy } from './support/faultyRestProxy.js';
import { writeFileSync } from 'node:fs';
import { JumpClock } from './support/jumpClock.js';
import { journalBotConfig, prepareProbeRoot, startBotOnSim, until, type JournalBot } from './support/journalBot.js';
import { fundedAccount } from './support/simAccount.js';

const OUTAGE_MS = 60_000;
/** Real time given to the sockets after each virtual second: pacing only, no assertion rests on it. */
const PACE_MS = 10;

/** Moves the clock a second at a time, giving the real I/O its turn, until `check` holds. */
async function jumpUntil(clock: JumpClock, check: () => boolean, maxMs = 60_000): Promise<void> {
  for (let jumped = 0; !check(); jumped += 1_000) {
    if (jumped >= maxMs) throw new Error(`not met within ${maxMs} ms of virtual time: ${check.toString()}`);
    await clock.jump(1_000);
    await new Promise((r) => setTimeout(r, PACE_MS));
  }
}

describe('degraded mode: the private feeds down for a minute', () => {
  let sim: RunningSim;
  let proxy: FaultyRestProxy;
  let dir: string;
  let bot: JournalBot | undefined;
  // The simulator's and the bot's time: the minute down passes in jumps, not on the wall clock.
  let clock: JumpClock;
  beforeEach(async () => {
    clock = new JumpClock();
    sim = await startSim({ port: 0, blockMs: 200, registrationLagMs: 0, clock });
    proxy = await startFaultyRestProxy(sim.restUrl);
    dir = mkdtempSync(join(tmpdir(), 'perpbot-degraded-'));
    prepareProbeRoot(dir);
    const watcher = new URL('./support/tradingStateWatcher.ts', import.meta.url).pathname;
    writeFileSync(join(dir, 'strategies', 'watcher.ts'), `export { default } from ${JSON.stringify(watcher)};\n`);
  });
  afterEach(async () => {
    await bot?.stop();
    await proxy.close();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the bot running and degraded (opening refused with FEED_DOWN, a cancel accepted), then resumes by itself', async () => {
    const who = await fundedAccount(sim);
    const config = journalBotConfig(dir).replace(
      'strategies:\n',
      'strategies:\n  - { name: watcher, module: strategies/watcher.ts, markets: [1] }\n',
    );
    bot = await startBotOnSim(sim, who, config, dir, { restUrl: proxy.url, clock });
    const { engine, lines } = bot;
    await until(() => engine.tracker.openOrders().filter((o) => o.orderId !== undefined).length === 2);
    let stopped = false;
    engine.tradingState$.subscribe((s) => (stopped ||= s.mode === 'stopped'));

    // The venue's nonce read fails (so auth_v2 cannot be signed) and the account's socket drops.
    proxy.fail('/v1/auth/nonce');
    const downAt = clock.now();
    expect(sim.controls.dropAccountWebSockets(who.account)).toBeGreaterThan(0);
    await until(() => engine.conditions.state.mode === 'degraded');

    const opening = await engine.execute(
      placeLimit({
        intentId: 'opening',
        strategy: 'probe',
        marketId: 1,
        side: 'buy',
        size: '0.0005',
        price: '62000',
        postOnly: true,
      }),
    );
    expect(opening).toMatchObject({ type: 'refused', refusal: { rule: 'feed_down' } });
    expect(opening.type === 'refused' ? opening.refusal.reason : '').toMatch(
      /^trading paused \(FEED_DOWN\): private feeds down/,
    );
    const target = engine.tracker.openOrders()[0]!;
    const cancelled = await engine.execute(
      cancel({ intentId: 'cancel-while-down', strategy: 'probe', marketId: 1, target: { intentId: target.intentId } }),
    );
    expect(cancelled).toMatchObject({ type: 'accepted' });

    // A minute down in virtual time, a second at a time: every timer of the bot and the simulator
    // (auth and read backoff, the outage watch) runs on this clock. Still degraded, never stopped,
    // and the nonce read was tried again and again.
    while (clock.now() - downAt < OUTAGE_MS) {
      await clock.jump(1_000);
      await new Promise((r) => setTimeout(r, PACE_MS));
      expect(engine.conditions.state.mode).toBe('degraded');
    }
    expect(stopped).toBe(false);
    expect(proxy.refused.get('/v1/auth/nonce') ?? 0).toBeGreaterThan(3);

    // The venue answers again: re-authentication, reconciliation, trading resumes with no one's help
    // (within the auth backoff's 10 s cap and the reconciliation, in virtual time).
    proxy.restore();
    await jumpUntil(clock, () => engine.conditions.state.mode === 'trading', 30_000);
    const resumed = await engine.execute(
      placeLimit({
        intentId: 'resumed',
        strategy: 'probe',
        marketId: 1,
        side: 'buy',
        size: '0.0005',
        price: '62000',
        postOnly: true,
      }),
    );
    expect(resumed).toMatchObject({ type: 'accepted' });
    const messages = lines.map((l) => (JSON.parse(l) as { msg: string }).msg);
    // One line as the period began and one as it ended, however often its reasons changed.
    expect(
      messages.filter(
        (m) => m === 'trading degraded: opening intents refused (FEED_DOWN), cancels and reduce-only go through',
      ),
    ).toHaveLength(1);
    expect(messages.filter((m) => m === 'trading resumed: feeds up and reconciled')).toHaveLength(1);
    expect(messages).not.toContain('trading stopped for a definite reason: stopping the bot');
    // The strategy saw it all on its stream: trading, degraded with the reason, trading again.
    const seen = lines
      .map((l) => JSON.parse(l) as { msg: string; mode?: string; reasons?: string[] })
      .filter((l) => l.msg === 'strategy saw trading state');
    const modes = seen.map((l) => l.mode).filter((m, i, all) => i === 0 || m !== all[i - 1]);
    expect(modes).toEqual(['trading', 'degraded', 'trading']);
    expect(seen.find((l) => l.mode === 'degraded')?.reasons?.[0]).toMatch(/^private feeds down/);
  }, 30_000);
});
