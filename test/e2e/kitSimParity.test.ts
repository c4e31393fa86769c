import { from } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Engine } from '../../src/engine/engine.js';
import { placeLimit, placeMarket } from '../../src/engine/intents/intentBuilders.js';
import type { IntentOutcome } from '../../src/engine/intents/intentOutcome.js';
import type { Intent } from '../../src/engine/intents/intents.js';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import { defineStrategy } from '../../src/strategy/index.js';
import { strategyTest } from '../../src/testing/index.js';
import { engineOnSim } from './support/engineOnSim.js';
import { fundedAccount } from './support/simAccount.js';

/** The simulator's market 1 (BTC/USDC) as the kit's market: the same grid, the same mark. */
const BTC = { tick: '0.1', step: '0.00001', minSize: '0.00015', mark: '65000' };

type Fields = Omit<Intent, 'intentId' | 'strategy' | 'kind'> & Record<string, unknown>;

/** Refused intents and the code both must give. */
const CASES: readonly {
  readonly name: string;
  readonly kind: 'limit' | 'market';
  readonly fields: Fields;
  readonly code: string;
}[] = [
  {
    name: 'post-only that would cross',
    kind: 'limit',
    fields: { marketId: 1, side: 'buy', size: '0.001', price: '65300', postOnly: true },
    code: 'VENUE_POST_ONLY_WOULD_CROSS',
  },
  {
    name: 'below the minimum size',
    kind: 'limit',
    fields: { marketId: 1, side: 'buy', size: '0.0001', price: '60000' },
    code: 'min_order_size',
  },
  {
    name: 'off the price grid',
    kind: 'limit',
    fields: { marketId: 1, side: 'buy', size: '0.001', price: '60000.05' },
    code: 'price_tick',
  },
  {
    name: 'reduce-only with no position',
    kind: 'market',
    fields: { marketId: 1, side: 'sell', size: '0.001', reduceOnly: true },
    code: 'reduce_only',
  },
];

/** The outcome's code: the rule of a refusal, the error code of a failure, else its type. */
function codeOf(o: IntentOutcome | undefined): string | undefined {
  if (o === undefined) return undefined;
  if (o.type === 'refused') return o.refusal.rule;
  if (o.type === 'failed') return o.error.code;
  return o.type;
}

function build(c: (typeof CASES)[number], intentId: string, strategy: string): Intent {
  const fields = { ...c.fields, intentId, strategy } as never;
  return c.kind === 'limit' ? placeLimit(fields) : placeMarket(fields);
}

describe('the same refused intent gives the same code in the kit and on the simulator', () => {
  let sim: RunningSim;
  let engine: Engine;
  beforeAll(async () => {
    sim = await startSim({ port: 0, blockMs: 0, registrationLagMs: 0, restRequestsPer10s: 0 });
    // A few blocks: the simulator's makers rest their quotes around the mark of 65,000.
    sim.controls.advanceBlocks(3);
    engine = engineOnSim(await fundedAccount(sim), { markets: [1] });
    await engine.start();
  });
  afterAll(async () => {
    await engine.stop();
    await sim.close();
  });

  it('post-only cross, below the minimum, off the grid, reduce-only with nothing to reduce', async () => {
    const onSim: (string | undefined)[] = [];
    for (const [i, c] of CASES.entries()) onSim.push(codeOf(await engine.execute(build(c, `sim-${i}`, 'parity'))));

    const t = await strategyTest(
      defineStrategy({
        name: 'parity',
        description: 'emits the refused intents',
        params: z.object({}),
        run: (ctx) => from(CASES.map((c, i) => build(c, `kit-${i}`, ctx.name))),
      }),
      { marketConfig: { 1: BTC } },
    );
    await t.book(1, { bids: [['64990', '1']], asks: [['65010', '1']] });
    await t.mark(1, '65000');
    await t.advance(1_000);
    const inKit = CASES.map((_, i) => codeOf(t.outcomes.find((o) => o.intentId === `kit-${i}`)));

    expect(onSim).toEqual(CASES.map((c) => c.code));
    expect(inKit).toEqual(onSim);
  });
});
