import { describe, expect, it } from 'vitest';
import { toHex } from 'viem';
import vectors from './protocol.json' with { type: 'json' };
import { parseDomain } from '../../src/protocol/domain.js';
import { createSigningContext, typedDigest } from '../../src/protocol/signingContext.js';
import { packOrderWord, unpackOrderWord } from '../../src/protocol/orderWord.js';
import {
  cancelAllOrdersHash,
  cancelOrderHash,
  placeOrderHash,
  placeOrderHeaderFlags,
  updateIsolatedMarginHash,
  updateLeverageHash,
  updateMarginModeHash,
} from '../../src/protocol/actionHashes.js';
import { SPEC_SELECTORS } from '../../src/protocol/selectors.js';
import { privateKeySigner } from '../../src/protocol/digestSigner.js';
import {
  parseBase64Signature,
  parseHexSignature,
  recoverAddress,
  toBase64Compact,
  toBase64Full,
  toHex65,
} from '../../src/protocol/signature.js';
import { TYPED_STRUCTS, type StructMessages, type StructName } from '../../src/protocol/typedStructs.js';
import type { OrderType, Side, StpMode, TimeInForce } from '../../src/protocol/enums.js';

const context = createSigningContext(parseDomain(vectors.domain), vectors.router);
const keys = {
  account: privateKeySigner(vectors.keys.account.privateKey as `0x${string}`),
  signer: privateKeySigner(vectors.keys.signer.privateKey as `0x${string}`),
};

/** JSON carries integers as strings; struct fields typed uintN become bigint (a string field stays as it is). */
function reviveMessage(name: StructName, message: Record<string, string>): Record<string, unknown> {
  const types = new Map<string, string>(TYPED_STRUCTS[name].map((f) => [f.name, f.type]));
  return Object.fromEntries(
    Object.entries(message).map(([k, v]) => [k, types.get(k)?.startsWith('uint') === true ? BigInt(v) : v]),
  );
}

describe('published protocol vectors', () => {
  it('the fixed keys derive the published addresses', () => {
    expect(keys.account.address).toBe(vectors.keys.account.address);
    expect(keys.signer.address).toBe(vectors.keys.signer.address);
    expect(SPEC_SELECTORS).toEqual(vectors.selectors);
  });

  it.each(vectors.orders)('order word: $name', (o) => {
    const fields = {
      marketId: Number(o.marketId),
      sizeSteps: BigInt(o.sizeSteps),
      priceTicks: BigInt(o.priceTicks),
      side: Number(o.side) as Side,
      postOnly: o.postOnly,
      reduceOnly: o.reduceOnly,
      stpMode: Number(o.stpMode) as StpMode,
      orderType: Number(o.orderType) as OrderType,
      timeInForce: Number(o.timeInForce) as TimeInForce,
    };
    expect(packOrderWord(fields).toString()).toBe(o.word);
    expect(unpackOrderWord(BigInt(o.word))).toEqual(fields);
  });

  it.each(vectors.places)('place-order hash #%#', (p) => {
    const input = {
      orderWord: BigInt(vectors.orders[p.order]!.word),
      builderId: Number(p.builderId),
      builderFeeBps: Number(p.builderFeeBps),
      clientOrderId: BigInt(p.clientOrderId),
      ttlUnits: Number(p.ttlUnits),
    };
    expect(placeOrderHeaderFlags(input)).toBe(p.headerFlags);
    expect(placeOrderHash(input)).toBe(p.hash);
  });

  it('cancel, cancel-all, leverage, margin-mode and isolated-margin hashes', () => {
    for (const c of vectors.actions.cancel)
      expect(cancelOrderHash(BigInt(c.marketId), BigInt(c.restingOrderId))).toBe(c.hash);
    for (const c of vectors.actions.cancelAll) expect(cancelAllOrdersHash(BigInt(c.marketId))).toBe(c.hash);
    for (const c of vectors.actions.leverage)
      expect(updateLeverageHash(Number(c.marketId), Number(c.leverage))).toBe(c.hash);
    for (const c of vectors.actions.marginMode)
      expect(updateMarginModeHash(Number(c.marketId), Number(c.marginMode) as 0 | 1)).toBe(c.hash);
    for (const c of vectors.actions.isolatedMargin)
      expect(updateIsolatedMarginHash(Number(c.marketId), BigInt(c.amount))).toBe(c.hash);
  });

  it.each(vectors.signatures)('$primaryType: digest and signature in every encoding', (v) => {
    const name = ('variant' in v && typeof v.variant === 'string' ? v.variant : v.primaryType) as StructName;
    const message = reviveMessage(name, v.message) as unknown as StructMessages[typeof name];
    const digest = typedDigest(context, name, message);
    expect(toHex(digest)).toBe(v.digest);
    const sig = keys[v.signedBy as 'account' | 'signer'].signDigest(digest);
    expect(toHex65(sig)).toBe(v.hex65);
    expect(toBase64Compact(sig)).toBe(v.base64Compact64);
    expect(toBase64Full(sig)).toBe(v.base64Full65);
    for (const decoded of [
      parseHexSignature(v.hex65, 's'),
      parseBase64Signature(v.base64Compact64, 's'),
      parseBase64Signature(v.base64Full65, 's'),
    ]) {
      expect(recoverAddress(digest, decoded)).toBe(keys[v.signedBy as 'account' | 'signer'].address);
    }
  });
});
