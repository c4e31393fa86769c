import { inspect } from 'node:util';
import type { Address, Hex } from 'viem';
import { registerSecret } from '../../../core/secretRegistry.js';

/**
 * A private key with its address. The key lives in a private field behind a getter, so spreading,
 * JSON, `console.log` and loggers see only the address and where the key came from.
 */
export class LoadedKey {
  readonly address: Address;
  readonly source: 'env' | 'file';
  /** The environment variable name or the file path. */
  readonly origin: string;
  readonly #privateKey: Hex;

  constructor(privateKey: Hex, address: Address, source: 'env' | 'file', origin: string) {
    // Every loaded key passes here: from now on the redactor recognises it in any text.
    registerSecret(privateKey);
    this.#privateKey = privateKey;
    this.address = address;
    this.source = source;
    this.origin = origin;
    Object.freeze(this);
  }

  get privateKey(): Hex {
    return this.#privateKey;
  }

  toJSON(): { address: Address; source: 'env' | 'file'; origin: string } {
    return { address: this.address, source: this.source, origin: this.origin };
  }

  [inspect.custom](): string {
    return `LoadedKey ${inspect(this.toJSON())}`;
  }
}
