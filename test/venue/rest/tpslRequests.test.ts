import { describe, expect, it } from 'vitest';
import { bytesToHex, recoverTypedDataAddress, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { privateKeySigner } from '../../../src/protocol/digestSigner.js';
import {
  signedCancelAllTpslBody,
  signedCancelTpslBody,
  signedPlaceTpslBody,
  type TpslOrderSpec,
} from '../../../src/venue/rest/tpslRequests.js';
import {
  cancelAllTpslRequestSchema,
  cancelTpslRequestSchema,
  placeTpslRequestSchema,
} from '../../../src/venue/schemas/restTpsl.js';
import { ACCOUNT_KEY, CONTEXT, DOMAIN, SIGNER_KEY } from '../../protocol/fixtures.js';

/**
 * The signed TP/SL bodies: what is sent is what is signed. viem (typed data written out here from
 * venue-tpsl.md, the numbers from its "Typed data" section) recovers the session signer from the
 * body's own values; the values are canonical and checked before signing.
 */
const signer = privateKeySigner(SIGNER_KEY);
const account = privateKeyToAccount(ACCOUNT_KEY).address;
const domain = {
  name: DOMAIN.name,
  version: DOMAIN.version,
  chainId: DOMAIN.chainId,
  verifyingContract: DOMAIN.verifyingContract,
};
const PLACE_FIELDS = [
  { name: 'account', type: 'address' },
  { name: 'marketId', type: 'uint64' },
  { name: 'side', type: 'uint8' },
  { name: 'size', type: 'string' },
  { name: 'stopType', type: 'uint8' },
  { name: 'stopPrice', type: 'string' },
  { name: 'limitPrice', type: 'string' },
  { name: 'orderType', type: 'uint8' },
  { name: 'stopPriceOption', type: 'uint8' },
  { name: 'tif', type: 'uint8' },
  { name: 'deadline', type: 'uint32' },
] as const;
const NUMBER: Record<string, number> = {
  BUY: 0,
  SELL: 1,
  TAKE_PROFIT: 0,
  STOP_LOSS: 1,
  MARKET: 0,
  LIMIT: 1,
  MARK_PRICE: 0,
  LAST_TRADED_PRICE: 1,
  GTC: 0,
  GTT: 1,
  FOK: 2,
  IOC: 3,
};

const stopLoss: TpslOrderSpec = {
  account,
  marketId: 1,
  side: 'SELL',
  size: '0.0150',
  stopType: 'STOP_LOSS',
  stopPrice: '61250.50',
  stopPriceOption: 'MARK_PRICE',
  deadline: 1_893_456_000,
};

function hexOf(signature: string): Hex {
  return signature.startsWith('0x') ? (signature as Hex) : bytesToHex(Buffer.from(signature, 'base64'));
}

/** Who signed a place body, by viem over the body's own values. */
function placeSigner(body: Record<string, unknown>, sized = false): Promise<Hex> {
  const message = {
    account: body['account'] as Hex,
    marketId: BigInt(body['market_id'] as string),
    side: NUMBER[body['side'] as string]!,
    size: body['size'] as string,
    stopType: NUMBER[body['stop_type'] as string]!,
    stopPrice: body['stop_price'] as string,
    limitPrice: body['limit_price'] as string,
    orderType: NUMBER[body['order_type'] as string]!,
    stopPriceOption: NUMBER[body['stop_price_option'] as string]!,
    tif: NUMBER[body['tif'] as string]!,
    deadline: body['deadline'] as number,
  };
  const signature = hexOf(body['signature'] as string);
  if (!sized)
    return recoverTypedDataAddress({
      domain,
      types: { PlaceTpslOrder: PLACE_FIELDS },
      primaryType: 'PlaceTpslOrder',
      message,
      signature,
    });
  return recoverTypedDataAddress({
    domain,
    types: { PlaceTpslOrder: [...PLACE_FIELDS, { name: 'sizePercentBps', type: 'uint32' }] },
    primaryType: 'PlaceTpslOrder',
    message: { ...message, sizePercentBps: body['size_percent_bps'] as number },
    signature,
  });
}

describe('signed TP/SL bodies', () => {
  it('a market stop-loss: canonical decimals, limit price "0", IOC, names on the wire, base64 of 65 bytes', async () => {
    const body = await signedPlaceTpslBody(CONTEXT, signer, stopLoss);
    expect(placeTpslRequestSchema.safeParse(body).success).toBe(true);
    expect(body).toMatchObject({
      market_id: '1',
      size: '0.015',
      stop_price: '61250.5',
      limit_price: '0',
      order_type: 'MARKET',
      tif: 'IOC',
      side: 'SELL',
      stop_type: 'STOP_LOSS',
      stop_price_option: 'MARK_PRICE',
      signer: signer.address,
    });
    expect(Buffer.from(body.signature, 'base64')).toHaveLength(65);
    expect(await placeSigner(body)).toBe(signer.address);
  });

  it('a limit take-profit on the last price, GTC by default, in the compact encoding', async () => {
    const body = await signedPlaceTpslBody(
      CONTEXT,
      signer,
      {
        ...stopLoss,
        stopType: 'TAKE_PROFIT',
        orderType: 'LIMIT',
        limitPrice: '70100',
        stopPriceOption: 'LAST_TRADED_PRICE',
      },
      'base64Compact64',
    );
    expect(body).toMatchObject({ order_type: 'LIMIT', limit_price: '70100', tif: 'GTC' });
    expect(Buffer.from(body.signature, 'base64')).toHaveLength(64);
    const compact = Buffer.from(body.signature, 'base64');
    // viem reads the 64-byte form through its own EIP-2098 decoding: rebuild r ‖ s ‖ v by hand.
    const yParity = (compact[32]! & 0x80) === 0x80 ? 1 : 0;
    compact[32] = compact[32]! & 0x7f;
    const full = Buffer.concat([compact, Buffer.from([27 + yParity])]).toString('base64');
    expect(await placeSigner({ ...body, signature: full })).toBe(signer.address);
  });

  it('a share of the position signs the variant with sizePercentBps and sends size_percent_bps', async () => {
    const body = await signedPlaceTpslBody(CONTEXT, signer, { ...stopLoss, size: '0', sizePercentBps: 10_000 });
    expect(body).toMatchObject({ size: '0', size_percent_bps: 10_000 });
    expect(await placeSigner(body, true)).toBe(signer.address);
    expect(await placeSigner(body, false)).not.toBe(signer.address);
  });

  it.each([
    ['size', { size: '0' }],
    ['size', { size: '-1' }],
    ['stopPrice', { stopPrice: '0' }],
    ['limitPrice', { limitPrice: '61000' }],
    ['limitPrice', { orderType: 'LIMIT' as const }],
    ['marketId', { marketId: 0 }],
    ['marketId', { marketId: 65_536 }],
    ['deadline', { deadline: 2 ** 32 }],
    ['sizePercentBps', { sizePercentBps: 10_001 }],
  ])('refuses %s before signing: %j', async (field, change) => {
    await expect(signedPlaceTpslBody(CONTEXT, signer, { ...stopLoss, ...change })).rejects.toThrow(field);
  });

  it('cancel and cancel-all: CancelTpslOrder and CancelAllTpslOrders over the body’s values', async () => {
    const cancel = await signedCancelTpslBody(CONTEXT, signer, { account, orderId: 'conditional-1', deadline: 7 });
    expect(cancelTpslRequestSchema.safeParse(cancel).success).toBe(true);
    const cancelSigner = await recoverTypedDataAddress({
      domain,
      types: {
        CancelTpslOrder: [
          { name: 'account', type: 'address' },
          { name: 'orderId', type: 'string' },
          { name: 'deadline', type: 'uint32' },
        ],
      },
      primaryType: 'CancelTpslOrder',
      message: { account, orderId: String(cancel.order_id), deadline: cancel.deadline },
      signature: hexOf(cancel.signature),
    });
    expect(cancelSigner).toBe(signer.address);
    const all = await signedCancelAllTpslBody(CONTEXT, signer, { account, marketId: 2, deadline: 7 });
    expect(cancelAllTpslRequestSchema.safeParse(all).success).toBe(true);
    expect(all.market_id).toBe('2');
    const allSigner = await recoverTypedDataAddress({
      domain,
      types: {
        CancelAllTpslOrders: [
          { name: 'account', type: 'address' },
          { name: 'marketId', type: 'uint64' },
          { name: 'deadline', type: 'uint32' },
        ],
      },
      primaryType: 'CancelAllTpslOrders',
      message: { account, marketId: 2n, deadline: 7 },
      signature: hexOf(all.signature),
    });
    expect(allSigner).toBe(signer.address);
    await expect(signedCancelAllTpslBody(CONTEXT, signer, { account, marketId: 0, deadline: 7 })).rejects.toThrow(
      'marketId',
    );
  });
});
