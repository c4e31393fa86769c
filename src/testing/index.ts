/**
 * `perpbot/testing`: run a strategy in virtual time on the real bot (the runtime's host and
 * budgets, the real engine) against the simulator's own exchange in-process, script the market,
 * and assert on what it does. No network, no wall clock.
 *
 *   const t = await strategyTest(myStrategy, { params: { size: '0.01' } });
 *   await t.mark(1, '65000');
 *   await t.book(1, { bids: [['64990', '1']], asks: [['65010', '1']] });
 *   await t.advance(60_000);
 *   expect(t.intentsOf('placeLimit')).toHaveLength(1);
 */
export { strategyTest, StrategyTest } from './strategyTestKit.js';
export type { StrategyTestOptions, KitLevels, KitRisk } from './kitOptions.js';
export type { KitMarket } from './kitMarkets.js';
export { VirtualTime } from './virtualTime.js';
export { memoryStorage, recordingLogger, type KitLogLine } from './kitSupport.js';
export type { QuoteUptimeView } from '../engine/quoting/quoteUptime.js';
