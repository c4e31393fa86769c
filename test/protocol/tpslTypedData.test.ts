import { describe, expect, it } from 'vitest';
import { hashTypedData, recoverTypedDataAddress, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { InvalidValueError } from '../../src/core/invalidValueError.js';
import { privateKeySigner } from '../../src/protocol/digestSigner.js';
import { StopPriceOption, StopType } from '../../src/protocol/enums.js';
import { parseBase64Signature, parseHexSignature, recoverAddress } from '../../src/protocol/signature.js';
import { typedDigest } from '../../src/protocol/signingContext.js';
import { signTypedStructAs } from '../../src/protocol/typedSignatures.js';
import type { PlaceTpslOrderMessage } from '../../src/protocol/typedStructs.js';
import { ACCOUNT_KEY, CONTEXT, DOMAIN, SIGNER_KEY } from './fixtures.js';

/**
 * The TP/SL structs (venue-tpsl.md "Typed data") through the project's signer: each encoding a
 * body may carry recovers the session signer, viem (written out here from the spec's fields, not
 * from the project's table) recovers the same, and a value the struct cannot hold is refused
 * before anything is signed.
 */
const signer = privateKeySigner(SIGNER_KEY);
const account = privateKeyToAccount(ACCOUNT_KEY).address;

const stopLoss: PlaceTpslOrderMessage = {
  account,
  marketId: 1n,
  side: 1,
  size: '0.015',
  stopType: StopType.StopLoss,
  stopPrice: '61250.5',
  limitPrice: '0',
  orderType: 0,
  stopPriceOption: StopPriceOption.MarkPrice,
  tif: 3,
  deadline: 1_893_456_000,
};

const PLACE_TYPES = {
  PlaceTpslOrder: [
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
  ],
} as const;

const viemDomain = {
  name: DOMAIN.name,
  version: DOMAIN.version,
  chainId: DOMAIN.chainId,
  verifyingContract: DOMAIN.verifyingContract,
};

describe('TP/SL typed data', () => {
  it('signs PlaceTpslOrder in every encoding a body may carry, each recovering the session signer', async () => {
    const digest = typedDigest(CONTEXT, 'PlaceTpslOrder', stopLoss);
    const viemMessage = { ...stopLoss, marketId: 1n, deadline: 1_893_456_000 };
    expect(toHex(digest)).toBe(
      hashTypedData({ domain: viemDomain, types: PLACE_TYPES, primaryType: 'PlaceTpslOrder', message: viemMessage }),
    );
    const hex = await signTypedStructAs(CONTEXT, signer, 'PlaceTpslOrder', stopLoss, 'hex65');
    const full = await signTypedStructAs(CONTEXT, signer, 'PlaceTpslOrder', stopLoss, 'base64Full65');
    const compact = await signTypedStructAs(CONTEXT, signer, 'PlaceTpslOrder', stopLoss, 'base64Compact64');
    expect(Buffer.from(full, 'base64')).toHaveLength(65);
    expect(Buffer.from(compact, 'base64')).toHaveLength(64);
    expect(Buffer.from(full, 'base64').toString('hex')).toBe(hex.slice(2));
    for (const sig of [
      parseHexSignature(hex, 's'),
      parseBase64Signature(full, 's'),
      parseBase64Signature(compact, 's'),
    ])
      expect(recoverAddress(digest, sig)).toBe(signer.address);
    const byViem = await recoverTypedDataAddress({
      domain: viemDomain,
      types: PLACE_TYPES,
      primaryType: 'PlaceTpslOrder',
      message: viemMessage,
      signature: hex as `0x${string}`,
    });
    expect(byViem).toBe(signer.address);
  });

  it('signs the very decimal text: "0.0150" is another message than "0.015"', () => {
    const a = toHex(typedDigest(CONTEXT, 'PlaceTpslOrder', stopLoss));
    const b = toHex(typedDigest(CONTEXT, 'PlaceTpslOrder', { ...stopLoss, size: '0.0150' }));
    expect(a).not.toBe(b);
  });

  it('refuses, before signing, every value the struct or the venue cannot hold', async () => {
    const bad: [string, Partial<Record<keyof PlaceTpslOrderMessage | 'sizePercentBps', unknown>>][] = [
      ['side', { side: 2 }],
      ['stopType', { stopType: 2 }],
      ['orderType', { orderType: -1 }],
      ['stopPriceOption', { stopPriceOption: 2 }],
      ['tif', { tif: 4 }],
      ['marketId', { marketId: 1n << 64n }],
      ['deadline', { deadline: 2 ** 32 }],
      ['size', { size: 15 }],
    ];
    for (const [field, change] of bad) {
      const message = { ...stopLoss, ...change } as PlaceTpslOrderMessage;
      await expect(
        signTypedStructAs(CONTEXT, signer, 'PlaceTpslOrder', message, 'base64Full65'),
        field,
      ).rejects.toThrow(InvalidValueError);
      expect(() => typedDigest(CONTEXT, 'PlaceTpslOrder', message), field).toThrow(new RegExp(field));
    }
    expect(() => typedDigest(CONTEXT, 'PlaceTpslOrderSized', { ...stopLoss, sizePercentBps: 10_001 })).toThrow(
      /sizePercentBps/,
    );
    expect(() => typedDigest(CONTEXT, 'CancelAllTpslOrders', { account, marketId: -1, deadline: 1 })).toThrow(
      /marketId/,
    );
  });
});
