import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareLoadAccount } from '../../../../bench/lib/throughput/loadAccount.js';
import { planPairs } from '../../../../bench/lib/throughput/requestPlan.js';
import { SendScheduler } from '../../../../bench/lib/throughput/sendScheduler.js';
import { signSlice } from '../../../../bench/lib/throughput/signedPairs.js';
import { startSim, type RunningSim } from '../../../../src/sim/startSim.js';

let sim: RunningSim;
beforeAll(async () => {
  sim = await startSim({ port: 0, blockMs: 0, registrationLagMs: 0, restRequestsPer10s: 0 });
});
afterAll(async () => {
  await sim.close();
});

async function post(path: string, body: string): Promise<{ status: number; text: string }> {
  const answer = await fetch(`${sim.restUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  return { status: answer.status, text: await answer.text() };
}

describe('pre-signed place-then-cancel pairs', () => {
  it('are all accepted by the simulator: each cancel commits to the number its place was given', async () => {
    const account = await prepareLoadAccount(sim.restUrl, (a) => sim.controls.registerNow(a));
    // Two slices, the second continuing the first's nonces and order numbers, across an anchor roll.
    const first = planPairs(3, 1, { anchor: account.nonce.anchor, bit: 204 });
    const second = planPairs(2, 1, first.next);
    const slices = [
      await signSlice(first.requests, account.signer, account.firstSequence),
      await signSlice(second.requests, account.signer, account.firstSequence + 3n),
    ];
    const orderIds: string[] = [];
    for (const slice of slices) {
      const scheduler = new SendScheduler(slice);
      for (let index = scheduler.next(); index !== undefined; index = scheduler.next()) {
        const request = slice[index]!;
        const answer = await post(request.path, request.body);
        expect(answer, `${request.kind} #${request.pair}`).toMatchObject({ status: 200 });
        if (request.kind === 'place')
          orderIds.push((JSON.parse(answer.text) as { data: { order_id: string } }).data.order_id);
        scheduler.answered(index, true);
      }
      expect(scheduler.done).toBe(true);
    }
    expect(orderIds.map((id) => BigInt(`0x${id.slice(2, 18)}`) >> 1n)).toEqual(
      [0n, 1n, 2n, 3n, 4n].map((k) => account.firstSequence + k),
    );
    // Every order was cancelled: nothing of the account rests.
    const open = await fetch(`${sim.restUrl}/v1/orders/open?account=${account.signer.account}&market_id=1`);
    expect(((await open.json()) as { data: { orders: unknown[] } }).data.orders).toEqual([]);
  });

  it('a cancel signed for another order number is refused: the simulator really checks the signature', async () => {
    const account = await prepareLoadAccount(sim.restUrl, (a) => sim.controls.registerNow(a));
    const plan = planPairs(1, 0, account.nonce);
    // Signed for the next number, sent for the right one: the recovered signer differs.
    const [place] = await signSlice(plan.requests.slice(0, 1), account.signer, account.firstSequence);
    const [wrongCancel] = await signSlice(plan.requests.slice(1), account.signer, account.firstSequence + 1n);
    const [rightCancel] = await signSlice(plan.requests.slice(1), account.signer, account.firstSequence);
    expect((await post(place!.path, place!.body)).status).toBe(200);
    const forged = JSON.parse(rightCancel!.body) as { permit: { signature: string } };
    forged.permit.signature = (JSON.parse(wrongCancel!.body) as { permit: { signature: string } }).permit.signature;
    const refused = await post(rightCancel!.path, JSON.stringify(forged));
    expect(refused.status).toBe(400);
    expect(refused.text).toMatch(/SignerNotAuthorized|InvalidNonceAnchor/);
  });
});
