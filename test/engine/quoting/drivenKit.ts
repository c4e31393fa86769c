import { Subject } from 'rxjs';
import { z } from 'zod';
import type { Intent, StrategyContext } from '../../../src/strategy/index.js';
import { defineStrategy } from '../../../src/strategy/index.js';
import { StrategyTest } from '../../../src/testing/index.js';

/**
 * A strategy the test drives, on the kit (market 1, a book of 99 / 101 and a mark of 100): `emit`
 * builds intents with the strategy's own context, the strategy emits them, and the kit settles.
 */
export async function drivenKit(options: { latencyMs?: number; book?: { bids: string; asks: string } } = {}) {
  const commands = new Subject<(ctx: StrategyContext) => Intent[]>();
  const sink = new Subject<Intent>();
  const definition = defineStrategy({
    name: 'driven',
    description: 'test',
    params: z.object({}),
    run: (ctx) => {
      commands.subscribe((build) => build(ctx).forEach((i) => sink.next(i)));
      return sink.asObservable();
    },
  });
  const t = new StrategyTest(definition, {
    ...(options.latencyMs === undefined ? {} : { latencyMs: options.latencyMs }),
  });
  await t.start();
  const book = options.book ?? { bids: '99', asks: '101' };
  await t.book(1, { bids: [[book.bids, '1']], asks: [[book.asks, '1']] });
  await t.mark(1, '100');
  // With a wire latency the book and mark take that long to reach the strategy, which runs once it has them.
  await t.advance(200);
  const emit = async (build: (ctx: StrategyContext) => Intent[]): Promise<Intent[]> => {
    let out: Intent[] = [];
    commands.next((ctx) => (out = build(ctx)));
    await t.settle();
    return out;
  };
  return { t, emit };
}
