import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { venueSender, type ActionEndpoints } from '../../../src/engine/sending/actionSender.js';
import { actionHashOf, buildSignedRequest, type SignedRequest } from '../../../src/engine/signing/signedRequest.js';
import type { ResolvedAction } from '../../../src/engine/checks/wireAction.js';
import { fastPrivateKeySigner } from '../../../src/protocol/nativeSigner.js';
import { SPEC_SELECTORS } from '../../../src/protocol/selectors.js';
import { bodyJson, isCheckedBody } from '../../../src/venue/rest/actionBodies.js';
import type { ActionReceipt } from '../../../src/venue/schemas/restActionReceipt.js';
import { CONTEXT, SIGNER_KEY } from '../../protocol/fixtures.js';

const ACCOUNT = '0x00000000000000000000000000000000000000a1';
const signer = fastPrivateKeySigner(SIGNER_KEY);
const permitAuth = {
  mode: 'permit',
  context: CONTEXT,
  signer,
  account: ACCOUNT,
  nonce: { anchor: 5n, bit: 3 },
  deadline: 1_700_000_060,
} as const;

const PLACE = {
  action: 'placeOrder',
  order: {
    market_id: 1,
    size_steps: 15,
    price_ticks: 650_000,
    side: 1,
    post_only: true,
    reduce_only: false,
    stp_mode: 0,
    order_type: 1,
    time_in_force: 1,
    client_order_id: 18_446_744_073_709_551_615n,
    ttl_units: 30,
  },
  size: '0.00015',
  price: '65000',
} satisfies ResolvedAction;
const ISOLATED = { action: 'updateIsolatedMargin', market_id: 6, amount: -(2n ** 127n) } satisfies ResolvedAction;

const ACTIONS: readonly ResolvedAction[] = [
  PLACE,
  { action: 'cancelOrder', market_id: 2, order_id: `0x${'ab'.repeat(24)}`, resting_order_id: 7n },
  { action: 'cancelAllOrders', market_id: 3 },
  { action: 'updateLeverage', market_id: 4, leverage: 20 },
  { action: 'updateMarginMode', market_id: 5, margin_mode: 1 },
  ISOLATED,
];

describe('buildSignedRequest', () => {
  it("with a signer that ignores the digest (a replay's placeholder): the same request, its action hash worked out when read", async () => {
    const signature = Object.freeze({ r: 1n, s: 1n, yParity: 0 as const });
    const placeholder = { address: signer.address, ignoresDigest: true, signDigest: () => signature };
    // The same signature from a signer that reads the digest: the only difference is what is worked out.
    const reading = { address: signer.address, signDigest: () => signature };
    for (const action of ACTIONS) {
      const unread = await buildSignedRequest(action, { ...permitAuth, signer: placeholder }, SPEC_SELECTORS);
      const read = await buildSignedRequest(action, { ...permitAuth, signer: reading }, SPEC_SELECTORS);
      // Every field a reader takes by name (the sender, the journal, a dry run's log) as the plain record's.
      const fields = (r: SignedRequest) => ({
        endpoint: r.endpoint,
        body: r.body,
        nonce: r.nonce,
        deadline: r.deadline,
        actionHash: r.actionHash,
      });
      expect(fields(unread)).toEqual(fields(read));
      expect(unread.actionHash).toBe(actionHashOf(action, SPEC_SELECTORS));
      expect(Object.keys(unread)).toEqual(['endpoint', 'body', 'nonce', 'deadline']);
      expect(isCheckedBody(unread.body)).toBe(true);
    }
  });

  it("gives each endpoint its own body, in the spec's field order with the permit last", async () => {
    const keys: Record<string, string[]> = {};
    for (const action of ACTIONS) {
      const request = await buildSignedRequest(action, permitAuth, SPEC_SELECTORS);
      expect(request.endpoint).toBe(action.action);
      keys[request.endpoint] = Object.keys(JSON.parse(JSON.stringify(request.body)) as object);
    }
    expect(keys).toEqual({
      placeOrder: [
        'market_id',
        'size_steps',
        'price_ticks',
        'side',
        'post_only',
        'reduce_only',
        'stp_mode',
        'order_type',
        'time_in_force',
        'client_order_id',
        'ttl_units',
        'permit',
      ],
      cancelOrder: ['market_id', 'order_id', 'permit'],
      cancelAllOrders: ['market_id', 'permit'],
      updateLeverage: ['market_id', 'leverage', 'permit_params'],
      updateMarginMode: ['market_id', 'margin_mode', 'permit_params'],
      updateIsolatedMargin: ['market_id', 'amount', 'permit_params'],
    });
  });

  it('writes the wide integers as decimal strings and the permit with its nonce and deadline', async () => {
    const place = await buildSignedRequest(PLACE, permitAuth, SPEC_SELECTORS);
    expect(place.body.client_order_id).toBe('18446744073709551615');
    expect(place.body.permit).toMatchObject({ account: ACCOUNT, nonce_anchor: '5', nonce_bitmap_index: 3 });
    expect(place).toMatchObject({ nonce: { anchor: 5n, bit: 3 }, deadline: 1_700_000_060 });
    const margin = await buildSignedRequest(ISOLATED, permitAuth, SPEC_SELECTORS);
    expect(margin.body.amount).toBe((-(2n ** 127n)).toString());
  });

  it('marks every body it builds as checked, and only those', async () => {
    for (const action of ACTIONS)
      expect(isCheckedBody((await buildSignedRequest(action, { mode: 'jwt' }, SPEC_SELECTORS)).body)).toBe(true);
    expect(isCheckedBody({ market_id: 3 })).toBe(false);
  });

  it("writes a place body's JSON as JSON.stringify does, with and without each optional field and the permit", async () => {
    const order = fc.record(
      {
        market_id: fc.integer({ min: 0, max: 0xffff }),
        size_steps: fc.integer({ min: 1, max: 0xffff_ffff }),
        price_ticks: fc.integer({ min: 0, max: 0xff_ffff }),
        side: fc.constantFrom(0 as const, 1 as const),
        post_only: fc.boolean(),
        reduce_only: fc.boolean(),
        stp_mode: fc.constantFrom(0 as const, 1 as const, 2 as const),
        order_type: fc.constantFrom(0 as const, 1 as const),
        time_in_force: fc.constantFrom(0 as const, 1 as const, 2 as const, 3 as const),
        client_order_id: fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
        ttl_units: fc.integer({ min: 0, max: 0xffff }),
      },
      { requiredKeys: ['market_id', 'size_steps', 'price_ticks', 'side', 'post_only', 'reduce_only'] },
    );
    const auth = fc.oneof(
      fc.constant({ mode: 'jwt' } as const),
      fc.record({
        anchor: fc.bigInt({ min: 0n, max: (1n << 48n) - 1n }),
        bit: fc.integer({ min: 0, max: 207 }),
        deadline: fc.integer({ min: 0, max: 0xffff_ffff }),
        account: fc.uint8Array({ minLength: 20, maxLength: 20 }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(order, auth, async (fields, a) => {
        const action = {
          ...PLACE,
          order: { stp_mode: 0, order_type: 1, time_in_force: 1, ...fields },
        } satisfies ResolvedAction;
        const authorization =
          'mode' in a
            ? a
            : {
                ...permitAuth,
                account: `0x${Buffer.from(a.account).toString('hex')}` as const,
                nonce: { anchor: a.anchor, bit: a.bit },
                deadline: a.deadline,
              };
        const { body } = await buildSignedRequest(action, authorization, SPEC_SELECTORS);
        expect(bodyJson(body)).toBe(JSON.stringify(body));
      }),
      { numRuns: 300 },
    );
  });

  it('on the JWT path carries no permit, nonce or deadline', async () => {
    const request = await buildSignedRequest(ACTIONS[2]!, { mode: 'jwt' }, SPEC_SELECTORS);
    expect(request.body).toEqual({ market_id: 3 });
    expect(request).not.toHaveProperty('nonce');
    expect(request).not.toHaveProperty('deadline');
  });

  it('refuses an out-of-range permit field before signing', async () => {
    await expect(
      buildSignedRequest(ACTIONS[2]!, { ...permitAuth, nonce: { anchor: 2n ** 48n, bit: 0 } }, SPEC_SELECTORS),
    ).rejects.toThrow(/nonce_anchor/);
    await expect(buildSignedRequest(ACTIONS[2]!, { ...permitAuth, deadline: 2 ** 32 }, SPEC_SELECTORS)).rejects.toThrow(
      /deadline/,
    );
  });
});

describe('venueSender', () => {
  it("sends each request to its endpoint's method with its body as built", async () => {
    const calls: [string, unknown][] = [];
    const record =
      (name: string) =>
      (body: unknown): Promise<ActionReceipt> => {
        calls.push([name, body]);
        return Promise.resolve({ success: true, tx_hash: `0x${'cd'.repeat(32)}`, block_number: 9 });
      };
    const rest: ActionEndpoints = {
      placeOrder: (body) => {
        calls.push(['placeOrder', body]);
        return Promise.resolve({ order_id: `0x${'ef'.repeat(24)}` });
      },
      cancelOrder: record('cancelOrder'),
      cancelAll: record('cancelAll'),
      updateLeverage: record('updateLeverage'),
      updateMarginMode: record('updateMarginMode'),
      updateIsolatedMargin: record('updateIsolatedMargin'),
    };
    const sender = venueSender(rest);
    const requests: SignedRequest[] = [];
    for (const action of ACTIONS) requests.push(await buildSignedRequest(action, permitAuth, SPEC_SELECTORS));
    const receipts = [];
    for (const request of requests) receipts.push(await sender.send(request));
    expect(calls.map(([name]) => name)).toEqual([
      'placeOrder',
      'cancelOrder',
      'cancelAll',
      'updateLeverage',
      'updateMarginMode',
      'updateIsolatedMargin',
    ]);
    expect(calls.map(([, body]) => body)).toEqual(requests.map((r) => r.body));
    expect(receipts[0]).toEqual({ orderId: `0x${'ef'.repeat(24)}` });
    expect(receipts[1]).toEqual({ txHash: `0x${'cd'.repeat(32)}` });
  });
});
