export { SPEC_SELECTORS, RISE_SELECTORS, type SelectorTable } from './selectors.js';
export { parseDomain } from './domain.js';
export { createSigningContext, type SigningContext } from './signingContext.js';
export { sizeToSteps, priceToTicks } from './orderQuantities.js';
export { packOrderWord, unpackOrderWord } from './orderWord.js';
export {
  placeOrderHash,
  cancelOrderHash,
  cancelAllOrdersHash,
  updateLeverageHash,
  updateMarginModeHash,
  updateIsolatedMarginHash,
  type Hex32,
} from './actionHashes.js';
export { privateKeySigner, type DigestSigner } from './digestSigner.js';
export { signPermit, type PermitWire } from './permit.js';
export { signTypedStruct, recoverTypedStructSigner } from './typedSignatures.js';
export { fastPrivateKeySigner } from './nativeSigner.js';
