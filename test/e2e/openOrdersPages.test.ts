import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstValueFrom, NEVER } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import { venueSender } from '../../src/engine/sending/actionSender.js';
import { Engine } from '../../src/engine/engine.js';
import { withEngineDefaults } from '../../src/engine/config/engineConfig.js';
import { placeLimit } from '../../src/engine/intents/intentBuilders.js';
import { SPEC_SELECTORS } from '../../src/protocol/selectors.js';
import { openJournalForBot } from '../../src/journal/openJournalForBot.js';
import type { Difference } from '../../src/journal/reconciliationReport.js';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import type { RestClient } from '../../src/venue/rest/restClient.js';
import { VenueWsClient } from '../../src/venue/ws/venueWsClient.js';
import { wsAuthenticatorFromRest } from '../../src/venue/ws/wsAuthenticatorFromRest.js';
import { until } from './support/journalBot.js';
import { fundedAccount } from './support/simAccount.js';

const quiet = { debug() {}, info() {}, warn() {}, error() {} };
/** The venue's page of open orders, made small so that six orders span three pages. */
const PAGE = 2;

describe('open orders spanning several pages', () => {
  let sim: RunningSim;
  let dir: string;
  beforeEach(async () => {
    sim = await startSim({ port: 0, blockMs: 0, registrationLagMs: 0 });
    dir = mkdtempSync(join(tmpdir(), 'perpbot-open-pages-'));
  });
  afterEach(async () => {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('are all kept open by the engine and the journal after a reconnect', async () => {
    const who = await fundedAccount(sim);
    // Every open-orders read is answered in pages of two (the simulator honours `limit`).
    const starts: string[] = [];
    const rest: RestClient = {
      ...who.rest,
      openOrders: (query, options) => {
        starts.push(query.start_index ?? '0');
        return who.rest.openOrders({ ...query, limit: String(PAGE) }, options);
      },
    };
    const journaled = await openJournalForBot({
      path: join(dir, 'journal.sqlite'),
      account: who.account,
      rest,
      clock: systemClock,
      log: quiet,
      markets: [1],
      runId: 'r1',
      unknownOrders: 'leave',
      adopter: () => undefined,
      maxInFlightWaitMs: 5_000,
      settleMs: 0,
    });
    const engine = new Engine({
      account: who.account,
      signer: who.signer,
      rest,
      sender: venueSender(rest),
      config: withEngineDefaults({}),
      selectors: SPEC_SELECTORS,
      clock: systemClock,
      log: quiet,
      markets: [1],
      journal: journaled.engineJournal,
    });
    const ws = new VenueWsClient({
      reconnect: { baseMs: 20, maxMs: 100 },
      url: sim.wsUrl,
      knownMarketIds: async () => [1],
      authenticator: wsAuthenticatorFromRest({
        rest: who.rest,
        context: who.context,
        account: who.account,
        signer: who.signer,
      }),
      staleAfterBlocks: 0,
    });
    try {
      journaled.beforeStart(engine);
      await engine.start();
      engine.attach({
        orders: ws.channel('orders'),
        positions: ws.channel('positions'),
        fills: ws.channel('fills'),
        account: ws.channel('account'),
        oracle: NEVER,
        connection: ws.connectionState$,
      });
      await journaled.afterStart(engine, { positionsChanged$: NEVER });
      await firstValueFrom(ws.channel('account'));

      const outcomes = await Promise.all(
        ['60000', '60010', '60020', '60030', '60040', '60050'].map((price, i) =>
          engine.execute(
            placeLimit({
              intentId: `bid-${i}`,
              strategy: 's',
              marketId: 1,
              side: 'buy',
              size: '0.0002',
              price,
              postOnly: true,
            }),
          ),
        ),
      );
      expect(outcomes.map((o) => o.type)).toEqual(Array(6).fill('accepted'));
      await until(() => engine.tracker.openOrders().filter((o) => o.state === 'open').length === 6);

      starts.length = 0;
      expect(sim.controls.dropAccountWebSockets(who.account)).toBeGreaterThan(0);
      const reconnects = () =>
        journaled.journal.db.prepare("SELECT differences FROM reconciliations WHERE trigger = 'reconnect'").all() as {
          differences: string;
        }[];
      await until(() => reconnects().length === 1 && engine.conditions.state.mode === 'trading');

      expect(
        engine.tracker
          .openOrders()
          .map((o) => [o.intentId, o.state])
          .sort(),
      ).toEqual(Array.from({ length: 6 }, (_, i) => [`bid-${i}`, 'open']));
      expect(
        journaled.journal
          .liveOrders(who.account)
          .map((o) => [o.intentId, o.state])
          .sort(),
      ).toEqual(Array.from({ length: 6 }, (_, i) => [`bid-${i}`, 'open']));
      expect(JSON.parse(reconnects()[0]!.differences) as Difference[]).toEqual([]);
      // One read of all three pages, which both reconciliations (the engine's and the journal's) judge.
      expect(starts.filter((s) => s === '4').length).toBe(1);
      expect(starts.filter((s) => s === '0').length).toBe(starts.filter((s) => s === '4').length);
    } finally {
      await engine.stop();
      await ws.close();
      journaled.close();
    }
  }, 30_000);
});
