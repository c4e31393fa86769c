import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import type { Journal } from '../../src/journal/journal.js';
import { openJournal } from '../../src/journal/openJournal.js';
import { reconcileWithVenue } from '../../src/journal/reconcileWithVenue.js';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import { readVenueSnapshotWithNonces } from '../../src/venue/state/venueSnapshot.js';
import { fundedAccount } from './support/simAccount.js';

describe('reconciliation compares the cross-margin balance with the journal', () => {
  let sim: RunningSim;
  let dir: string;
  let journal: Journal;
  beforeEach(async () => {
    sim = await startSim({ port: 0, blockMs: 0, registrationLagMs: 0 });
    dir = mkdtempSync(join(tmpdir(), 'perpbot-journal-balance-'));
    journal = openJournal(join(dir, 'journal.sqlite'));
  });
  afterEach(async () => {
    journal.close();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('journals a snapshot per applied reconciliation and reports the change since the last one', async () => {
    const who = await fundedAccount(sim);
    const reconcile = (apply: boolean, trigger: 'start' | 'cli') =>
      reconcileWithVenue({
        journal,
        rest: who.rest,
        account: who.account,
        markets: [1],
        clock: systemClock,
        trigger,
        unknownOrders: 'leave',
        apply,
      });
    const venue = async () => (await who.rest.crossMarginBalance(who.account)).balance;

    const first = await reconcile(true, 'start');
    const funded = await venue();
    expect(first.balance).toEqual({ venue: funded });
    expect(journal.latestBalance(who.account)).toMatchObject({ balance: funded, source: 'start', atMs: first.atMs });

    // Money moved while the bot was not looking: a collateral deposit (the faucet pays once).
    sim.context.exchange.deposit(who.account, '250');
    const readOnly = await reconcile(false, 'cli');
    expect(readOnly.balance).toEqual({
      venue: await venue(),
      journaled: funded,
      journaledAtMs: first.atMs,
      change: '250',
    });
    expect(readOnly.differences).toEqual([]);
    // Without apply nothing is written: the last snapshot is still the first one.
    expect(journal.latestBalance(who.account)?.balance).toBe(funded);

    const applied = await reconcile(true, 'cli');
    expect(applied.balance.change).toBe('250');
    expect(journal.latestBalance(who.account)).toMatchObject({ balance: await venue(), source: 'cli' });
    expect((await reconcile(false, 'cli')).balance.change).toBe('0');
  }, 15_000);

  it("stamps a snapshot read before it began (a reconnect's shared read) with when it was read", async () => {
    const who = await fundedAccount(sim);
    const read = await readVenueSnapshotWithNonces(who.rest, { account: who.account, markets: [1] });
    const readAtMs = systemClock.now() - 5_000;
    const report = await reconcileWithVenue({
      journal,
      rest: who.rest,
      account: who.account,
      markets: [1],
      clock: systemClock,
      trigger: 'reconnect',
      unknownOrders: 'leave',
      apply: true,
      snapshot: { ...read, readAtMs },
    });
    expect(report.atMs).toBe(readAtMs);
    expect(journal.latestBalance(who.account)).toMatchObject({ balance: read.balance, atMs: readAtMs });
  }, 15_000);
});
