import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { venueSender, type ActionSender } from '../../src/engine/sending/actionSender.js';
import { PnlLedger } from '../../src/engine/ledger/pnlLedger.js';
import { closePosition, placeLimit } from '../../src/engine/intents/intentBuilders.js';
import type { IntentOutcome } from '../../src/engine/intents/intentOutcome.js';
import type { TrackedFill } from '../../src/engine/tracking/orderTracker.js';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import { attachEngineToSimWs } from './support/engineOnSimWs.js';
import { engineOnSim } from './support/engineOnSim.js';
import { fundedAccount, type SimAccount } from './support/simAccount.js';

/** The venue's answers arrive late: the fills channel tells of a taker's fill before its placement's answer. */
function lateAnswers(who: SimAccount, ms: number): ActionSender {
  const inner = venueSender(who.rest);
  return {
    send: async (request, options) => {
      const receipt = await inner.send(request, options);
      await new Promise((r) => setTimeout(r, ms));
      return receipt;
    },
  };
}

const accepted = async (outcome: Promise<IntentOutcome>) => expect((await outcome).type).toBe('accepted');
const offer = (id: string, side: 'buy' | 'sell', price: string) =>
  placeLimit({ intentId: id, strategy: 'maker', marketId: 1, side, size: '0.002', price, postOnly: true });

describe('the engine ledger against the simulator', () => {
  let sim: RunningSim;
  beforeEach(async () => {
    // No automatic blocks: no synthetic makers, so the book holds only these orders.
    sim = await startSim({ port: 0, blockMs: 0, registrationLagMs: 0, restRequestsPer10s: 0 });
  });
  afterEach(async () => {
    await sim.close();
  });

  it("attributes a close's fill to its strategy although the fill arrives before the placement's answer", async () => {
    const [who, other] = [await fundedAccount(sim), await fundedAccount(sim)];
    const engine = engineOnSim(who, { sender: lateAnswers(who, 300) });
    const maker = engineOnSim(other);
    await Promise.all([engine.start(), maker.start()]);
    const ws = await attachEngineToSimWs(sim, who, engine);
    const fills: TrackedFill[] = [];
    // What a fills subscriber sees of the ledger: the fill it hears of is already booked.
    const positionsSeen: unknown[] = [];
    engine.fills$.subscribe((f) => {
      fills.push(f);
      positionsSeen.push(engine.ledger.strategyPositions('taker').get(1) ?? 'flat');
    });

    await accepted(maker.execute(offer('ask', 'sell', '66000')));
    await accepted(
      engine.execute(
        placeLimit({
          intentId: 'open',
          strategy: 'taker',
          marketId: 1,
          side: 'buy',
          size: '0.002',
          price: '66000',
          timeInForce: 'IOC',
        }),
      ),
    );
    await accepted(maker.execute(offer('bid', 'buy', '65000')));
    await accepted(engine.execute(closePosition({ intentId: 'flatten', strategy: 'taker', marketId: 1 })));
    await vi.waitFor(() => expect(fills).toHaveLength(2));

    // Every fill is the taker's, the close's included, and its order is filled, not "cancelled, filled 0".
    expect(fills.map((f) => [f.intentId, f.strategy])).toEqual([
      ['open', 'taker'],
      ['flatten', 'taker'],
    ]);
    expect(engine.tracker.order('flatten')).toMatchObject({ state: 'filled', filledSize: '0.002' });
    expect(positionsSeen).toEqual([{ side: 'buy', size: '0.002' }, 'flat']);
    expect(engine.ledger.unattributed().fills).toBe(0);
    expect(engine.ledger.strategyPositions('taker')).toEqual(new Map());

    // The strategy's realised PnL and fees equal the venue's own fills booked by average entry.
    const venue = new PnlLedger();
    for (const t of (await who.rest.tradeHistory({ account: who.account })).trades.reverse())
      venue.onFill({ marketId: t.market_id, side: t.side, price: t.price, size: t.size, fee: t.fee });
    const expected = venue.view(() => undefined);
    expect(engine.ledger.strategyPnl('taker')).toEqual(expected);
    expect(engine.ledger.accountPnl()).toEqual(expected);
    expect(expected.realisedPnl).toBe('-2');

    await Promise.all([engine.stop(), maker.stop()]);
    await ws.close();
  });
});
