import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/engine/engine.js';
import { placeLimit } from '../../src/engine/intents/intentBuilders.js';
import { JOURNAL_FAULT_FILE_ENV } from '../../src/journal/journalWriteFault.js';
import { openJournal } from '../../src/journal/openJournal.js';
import { isFlatPosition } from '../../src/venue/schemas/restAccount.js';
import { engineOnSim } from './support/engineOnSim.js';
import { until } from './support/journalBot.js';
import { fundedAccount } from './support/simAccount.js';
import { spawnedProbeBot, type SpawnedProbeBot } from './support/spawnedProbeBot.js';
import type { RunningPerpbot } from './support/spawnPerpbot.js';

/**
 * The full-disk drill: `PERPBOT_JOURNAL_FAULT_FILE` makes every journal write fail as on a full
 * disk while the file exists (a real full disk cannot be made on demand: SQLite reuses its WAL).
 */
describe('a journal that cannot be written under a running bot with an order resting and a position open', () => {
  let probe: SpawnedProbeBot;
  let bot: RunningPerpbot | undefined;
  let counterparty: Engine | undefined;
  beforeEach(async () => {
    probe = await spawnedProbeBot('journal-full', '{ open_orders: cancel, positions: close }');
  });
  afterEach(async () => {
    await counterparty?.stop();
    await probe.close();
  });

  it('stops opening, still cancels and closes on stop, leaves nothing on the venue, and keeps every record', async () => {
    const { journal, rest, account, sim } = probe;
    const faultFile = join(probe.dir, 'disk-full');
    const open = () => probe.openOrders();
    const flat = async () => isFlatPosition(await rest.position({ account, market_id: '1' }));
    bot = probe.start({ [JOURNAL_FAULT_FILE_ENV]: faultFile });
    await until(async () => (await open()) === 2, 60_000);
    // A counterparty sells into the bot's 64000 bid: the bot is long, one bid still rests.
    const seller = await fundedAccount(sim);
    counterparty = engineOnSim(seller);
    await counterparty.start();
    const sold = await counterparty.execute(
      placeLimit({
        intentId: 'hit-bid',
        strategy: 'c',
        marketId: 1,
        side: 'sell',
        size: '0.0005',
        price: '64000',
        timeInForce: 'IOC',
      }),
    );
    expect(sold.type).toBe('accepted');
    await until(async () => !(await flat()) && (await open()) === 1, 30_000);

    // Someone to close against: a bid resting just below the mark, within the close's slippage bound.
    const bid = await counterparty.execute(
      placeLimit({
        intentId: 'rest-bid',
        strategy: 'c',
        marketId: 1,
        side: 'buy',
        size: '0.001',
        price: '64900',
        postOnly: true,
      }),
    );
    expect(bid.type).toBe('accepted');

    // The disk fills; the stop's first write (a cancel's intent) finds it full.
    writeFileSync(faultFile, 'drill');
    bot.child.kill('SIGTERM');
    // Stopped in order, but records of the run never reached the journal: not a success.
    expect(await bot.exited).toBe(1);

    const output = bot.output();
    expect(await open(), output.slice(-3000)).toBe(0);
    expect(await flat(), output.slice(-3000)).toBe(true);
    expect(output).toContain('journal cannot be written');
    expect(output).toContain('database or disk is full');
    expect(output).toContain('full-disk drill armed: while');
    expect(output).toContain('left on the venue at exit: nothing (no open orders, no positions)');
    expect(output).toMatch(/perpbot: the journal .* lacks \d+ record\(s\) of this run/);
    // Every action sent while the journal was down has its outcome in the fallback file.
    const records = readFileSync(`${journal}.fallback.jsonl`, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { hook: string; args: [{ intentId?: string; kind?: string }] });
    const sent = new Set(records.filter((r) => r.hook === 'requestSent').map((r) => r.args[0].intentId));
    const answered = new Set(records.filter((r) => r.hook === 'outcome').map((r) => r.args[0].intentId));
    expect(sent.size).toBeGreaterThanOrEqual(2);
    for (const id of sent) expect(answered.has(id)).toBe(true);
    expect(records.some((r) => r.hook === 'outcome' && r.args[0].kind === 'closePosition')).toBe(true);
    // The resting bid was cancelled while the journal was down (by the strategy's safe stop, or the shutdown's cancel-all).
    expect(
      records.some((r) => r.hook === 'outcome' && (r.args[0].kind === 'cancel' || r.args[0].kind === 'cancelAll')),
    ).toBe(true);

    // The disk has room again: the next start writes; the journal itself was never damaged.
    rmSync(faultFile);
    const reopened = openJournal(journal);
    reopened.close();
    expect(existsSync(journal)).toBe(true);
  }, 180_000);
});
