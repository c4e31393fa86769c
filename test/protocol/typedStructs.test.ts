import { describe, expect, it } from 'vitest';
import { keccak256, toHex } from 'viem';
import { typeHash, typeString } from '../../src/protocol/typedStructs.js';

// Type strings exactly as the spec and venue-facts write them; hashes as deployed on the venue.
const CASES = [
  {
    name: 'RegisterSigner',
    text: 'RegisterSigner(address account,address signer,string message,uint32 expiration,uint48 nonceAnchor,uint8 nonceBitmap)',
    hash: '0xa526f63b3968e56ae1b177ce9b3dc29766e0891e6397a9c23cf8c53ee8fc8f62',
  },
  {
    name: 'VerifySigner',
    text: 'VerifySigner(address account,uint48 nonceAnchor,uint8 nonceBitmap)',
    hash: '0x4d298dcceb691695f582cc337308236426a0c97201a31834625e8eadc44d4230',
  },
  {
    name: 'RevokeSigner',
    text: 'RevokeSigner(address account,address signer,uint48 nonceAnchor,uint8 nonceBitmap)',
    hash: '0x36db7f392f548b56f37d89469115d138685addf06be45684f9e5b0e8b5d28000',
  },
  {
    name: 'VerifyWitness',
    text: 'VerifyWitness(address account,address target,bytes32 hash,uint48 nonceAnchor,uint8 nonceBitmap,uint32 deadline)',
    hash: '0x055e6bcbf2ba5ff1c2ba5dc95b6648a5de6aaab3185251a34e3b88c11e116821',
  },
  {
    name: 'PermitSingle',
    text: 'PermitSingle(address account,address operator,uint96 budget,uint32 allowanceExpiry,uint48 nonceAnchor,uint8 nonceBitmap)',
    hash: '0x0776297f41046e119f28b9bd380b653a8c632d5700a51311bc8fed061b1c00f1',
  },
  // venue-tpsl.md "Typed data", character for character (two clients agree); no deployed hash known.
  {
    name: 'PlaceTpslOrder',
    text: 'PlaceTpslOrder(address account,uint64 marketId,uint8 side,string size,uint8 stopType,string stopPrice,string limitPrice,uint8 orderType,uint8 stopPriceOption,uint8 tif,uint32 deadline)',
    hash: undefined,
  },
  {
    name: 'PlaceTpslOrderSized',
    text: 'PlaceTpslOrder(address account,uint64 marketId,uint8 side,string size,uint8 stopType,string stopPrice,string limitPrice,uint8 orderType,uint8 stopPriceOption,uint8 tif,uint32 deadline,uint32 sizePercentBps)',
    hash: undefined,
  },
  { name: 'CancelTpslOrder', text: 'CancelTpslOrder(address account,string orderId,uint32 deadline)', hash: undefined },
  {
    name: 'CancelAllTpslOrders',
    text: 'CancelAllTpslOrders(address account,uint64 marketId,uint32 deadline)',
    hash: undefined,
  },
  { name: 'Login', text: 'Login(address account,uint256 nonce,uint32 deadline)', hash: undefined },
  { name: 'RegisterV2', text: 'RegisterV2(address signer,string message,uint256 nonce)', hash: undefined },
] as const;

describe('typed structs', () => {
  for (const c of CASES) {
    it(`${c.name}: type string is the spec's literal string`, () => {
      expect(typeString(c.name)).toBe(c.text);
      expect(toHex(typeHash(c.name))).toBe(keccak256(toHex(c.text)));
    });
    if (c.hash !== undefined) {
      it(`${c.name}: typehash equals the deployed contract's`, () => {
        expect(toHex(typeHash(c.name))).toBe(c.hash);
      });
    }
  }
});
