export { Side, OrderType, TimeInForce, StpMode, MarginMode, checkEnum } from './enums.js';
export { SPEC_SELECTORS, RISE_SELECTORS, SELECTOR_PROFILES, selectorWord, type SelectorTable, type SelectorProfile } from './selectors.js';
export { parseDomain, domainSeparator, type Eip712Domain, type DomainWire } from './domain.js';
export {
  TYPED_STRUCTS,
  typeString,
  typeHash,
  type StructName,
  type StructMessages,
  type RegisterSignerMessage,
  type VerifySignerMessage,
  type RevokeSignerMessage,
  type VerifyWitnessMessage,
  type LoginMessage,
  type RegisterV2Message,
  type PermitSingleMessage,
} from './typedStructs.js';
export { structHash, eip712Digest } from './structHash.js';
export { createSigningContext, typedDigest, type SigningContext } from './signingContext.js';
export { sizeToSteps, priceToTicks, stepsToSize, ticksToPrice, MAX_PRICE_TICKS, MAX_SIZE_STEPS } from './orderQuantities.js';
export { packOrderWord, unpackOrderWord, orderFlags, type OrderWordFields } from './orderWord.js';
export {
  placeOrderHash,
  placeOrderHeaderFlags,
  cancelOrderHash,
  cancelAllOrdersHash,
  updateLeverageHash,
  updateMarginModeHash,
  updateIsolatedMarginHash,
  type PlaceOrderHashInput,
  type Hex32,
} from './actionHashes.js';
export {
  parseBase64Signature,
  parseHexSignature,
  recoverAddress,
  signatureFromBytes,
  toBase64Compact,
  toBase64Full,
  toHex65,
  type Signature,
} from './signature.js';
export { privateKeySigner, toDigestSigner, type DigestSigner, type SyncDigestSigner, type SignerLike, type ViemStyleAccount } from './digestSigner.js';
export {
  signPermit,
  permitDigest,
  permitWire,
  MAX_NONCE_ANCHOR,
  MAX_NONCE_BITMAP_INDEX,
  type PermitRequest,
  type PermitWire,
  type PermitSignatureEncoding,
} from './permit.js';
export { signTypedStruct, recoverTypedStructSigner } from './typedSignatures.js';
export { viemTypedData } from './viemTypedData.js';
export { fastPrivateKeySigner, nativeSignerAvailable } from './nativeSigner.js';
export { keccak256, keccakImplementation } from './keccak.js';
export { orderbookChecksum, orderbookChecksumOfWire, orderbookChecksumText, type ChecksumLevel, type WireChecksumLevel } from './orderbookChecksum.js';
