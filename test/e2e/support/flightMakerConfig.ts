import { join } from 'node:path';

/**
 * The config the flight recorder's e2e tests run the bundled market maker with on the simulator:
 * the journal (and so the flight) in `dir`, the recorder on, `spreadBps` the parameter a replay
 * may change, `extra` any further sections.
 */
export function flightMakerConfig(dir: string, spreadBps: number, extra = ''): string {
  return `
venue: { profile: sim, rest_url: http://127.0.0.1:1, ws_url: ws://127.0.0.1:1/ws }
risk:
  max_order_notional: "1000"
  max_position_per_market: "5000"
  max_open_orders: 20
  max_actions_per_second: 5
  kill_switch: { max_loss: "500" }
strategies:
  - name: market-maker
    module: strategies/marketMaker.ts
    markets: [1]
    params: { size: "0.001", spread_bps: ${spreadBps}, requote_bps: 3, max_inventory: "0.01", skew_bps: 10, post_only: true }
logging: { level: warn, pretty: false }
journal: { path: ${JSON.stringify(join(dir, 'journal.sqlite'))} }
recorder: { enabled: true }
${extra}`;
}
