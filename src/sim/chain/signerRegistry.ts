import type { Address } from '../../core/address.js';
import { addressKey } from '../../core/addressKey.js';
import type { SignerStatus } from '../simContext.js';

export const SIGNER_ACTIVE = 1;
export const SIGNER_REVOKED = 3;

/** Text form of a status, as `status_description` shows it. */
export function signerStatusDescription(status: SignerStatus): string {
  return status === 1 ? 'Active' : status === 3 ? 'Revoked' : 'NotRegistered';
}

/** Session keys registered on-chain per account: Active (1) or Revoked (3). */
export class SignerRegistry {
  /** Account key, then signer key: no joined key text made (and hashed) per lookup. */
  private readonly statuses = new Map<string, Map<string, SignerStatus>>();
  private readonly trusted = new Set<string>();

  status(account: Address, signer: Address): SignerStatus {
    return this.statuses.get(addressKey(account))?.get(addressKey(signer)) ?? 0;
  }

  isActive(account: Address, signer: Address): boolean {
    return this.status(account, signer) === SIGNER_ACTIVE;
  }

  activate(account: Address, signer: Address): void {
    this.set(account, signer, SIGNER_ACTIVE);
  }

  revoke(account: Address, signer: Address): void {
    this.set(account, signer, SIGNER_REVOKED);
  }

  private set(account: Address, signer: Address, status: SignerStatus): void {
    const accountKey = addressKey(account);
    let signers = this.statuses.get(accountKey);
    if (signers === undefined) {
      signers = new Map();
      this.statuses.set(accountKey, signers);
    }
    signers.set(addressKey(signer), status);
  }

  /**
   * Only for an in-process replay (`InProcessVenue.trustSignaturesOf`), never on a socket: the
   * account's permits count as signed by the signer they name, without recovering the signature
   * (the bot still signs each one; every other check of the permit still runs).
   */
  trustSignaturesOf(account: Address): void {
    this.trusted.add(addressKey(account));
  }

  trustsSignaturesOf(account: Address): boolean {
    return this.trusted.size > 0 && this.trusted.has(addressKey(account));
  }
}
