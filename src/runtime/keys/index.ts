export { ACCOUNT_KEY_FILE, createKeyFiles, SIGNER_KEY_FILE, type CreatedKeyFiles } from './createKeyFiles.js';
export { KeyError } from './keyError.js';
export { LoadedKey } from './loadedKey.js';
export { loadKey, type LoadKeyOptions } from './loadKey.js';
export { ACCOUNT_KEY_ENV, loadVenueKeys, SIGNER_KEY_ENV, type VenueKeys } from './loadVenueKeys.js';
export { parsePrivateKey } from './parsePrivateKey.js';
