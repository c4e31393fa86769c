/**
 * `perpbot/testing`: run a strategy in virtual time against scripted streams and a paper exchange,
 * and assert on what it does. The same host and context as the runtime; no network, no wall clock.
 *
 *   const t = await strategyTest(myStrategy, { params: { size: '0.01' } });
 *   await t.mark(1, '65000');
 *   await t.book(1, { bids: [['64990', '1']], asks: [['65010', '1']] });
 *   await t.advance(60_000);
 *   expect(t.intentsOf('placeLimit')).toHaveLength(1);
 */
export {
  strategyTest,
  StrategyTest,
  type StrategyTestOptions,
  type KitMarket,
  type KitLevels,
} from './strategyTestKit.js';
export {
  PaperExchange,
  type FillModel,
  type Responder,
  type ScriptedOutcome,
  type PaperExchangeOptions,
} from './paperExchange.js';
export { VirtualTime } from './virtualTime.js';
export { memoryStorage, recordingLogger, type KitLogLine } from './kitSupport.js';
