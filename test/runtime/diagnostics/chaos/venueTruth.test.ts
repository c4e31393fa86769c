import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAddress } from '../../../../src/core/address.js';
import { readVenueTruth } from '../../../../src/runtime/diagnostics/chaos/venueTruth.js';
import type { SimRuntime } from '../../../../src/sim/simRuntime.js';
import { startSim, type RunningSim } from '../../../../src/sim/startSim.js';

let sim: RunningSim;
beforeAll(async () => {
  sim = await startSim({ port: 0, blockMs: 0, registrationLagMs: 0 });
});
afterAll(async () => sim.close());

describe('readVenueTruth', () => {
  it("reads an account's orders, fills, positions and balance from the simulator's own records", () => {
    const account = parseAddress('0x00000000000000000000000000000000000000a1', 'account');
    const runtime = sim.context as SimRuntime;
    runtime.recordAction(runtime.exchange.deposit(account, '1000').events);
    sim.controls.advanceBlocks(3);
    // A market buy against the simulator's makers: one order, fills, a long position, fees paid.
    const placed = runtime.exchange.placeOrder(
      account,
      {
        market_id: 1,
        size_steps: 100,
        price_ticks: 2_000_000,
        side: 0,
        post_only: false,
        reduce_only: false,
        stp_mode: 0,
        order_type: 0,
        time_in_force: 3,
        client_order_id: 77n,
      },
      sim.context.clock.now(),
    );
    runtime.recordAction(placed.events);
    const truth = readVenueTruth(sim.context, account);
    expect(truth.orders).toEqual([
      { orderId: placed.order.order_id.toLowerCase(), marketId: 1, clientOrderId: '77', status: 'ORDER_STATUS_FILLED' },
    ]);
    expect(truth.fills.length).toBeGreaterThan(0);
    expect(truth.fills.every((f) => f.orderId === placed.order.order_id.toLowerCase() && f.side === 'buy')).toBe(true);
    expect(truth.positions.find((p) => p.marketId === 1)?.signedSize).toBe(placed.filled_quantity);
    expect(truth.positions.filter((p) => p.marketId !== 1).every((p) => p.signedSize === '0')).toBe(true);
    expect(truth.balance).toBe(sim.context.exchange.balance(account).balance);
  });

  it('counts signed actions the simulator refused as malformed (InvalidArgument), not other refusals', async () => {
    const before = readVenueTruth(
      sim.context,
      parseAddress('0x00000000000000000000000000000000000000a2', 'account'),
    ).refused;
    const post = (path: string, body: string) =>
      fetch(`${sim.restUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect((await post('/v1/orders/place', '[]')).status).toBe(400);
    expect((await post('/v1/orders/place', '{}')).status).toBe(400);
    expect((await fetch(`${sim.restUrl}/v1/orders/open?account=zz`)).status).toBeGreaterThanOrEqual(400);
    const after = readVenueTruth(
      sim.context,
      parseAddress('0x00000000000000000000000000000000000000a2', 'account'),
    ).refused;
    expect(after.invalidArgument - before.invalidArgument).toBe(2);
    expect(after.signerNotAuthorized).toBe(0);
    expect(after.samples.at(-1)).toMatch(/^POST \/v1\/orders\/place: InvalidArgument: /);
  });
});
