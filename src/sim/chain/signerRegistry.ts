import type { Address } from '../../core/address.js';
import type { SignerStatus } from '../simContext.js';

export const SIGNER_ACTIVE = 1;
export const SIGNER_REVOKED = 3;

/** Text form of a status, as `status_description` shows it. */
export function signerStatusDescription(status: SignerStatus): string {
  return status === 1 ? 'Active' : status === 3 ? 'Revoked' : 'NotRegistered';
}

/** Session keys registered on-chain per account: Active (1) or Revoked (3). */
export class SignerRegistry {
  private readonly statuses = new Map<string, SignerStatus>();
  private readonly trusted = new Set<string>();

  status(account: Address, signer: Address): SignerStatus {
    return this.statuses.get(key(account, signer)) ?? 0;
  }

  isActive(account: Address, signer: Address): boolean {
    return this.status(account, signer) === SIGNER_ACTIVE;
  }

  activate(account: Address, signer: Address): void {
    this.statuses.set(key(account, signer), SIGNER_ACTIVE);
  }

  revoke(account: Address, signer: Address): void {
    this.statuses.set(key(account, signer), SIGNER_REVOKED);
  }

  /**
   * Only for an in-process replay (`InProcessVenue.trustSignaturesOf`), never on a socket: the
   * account's permits count as signed by the signer they name, without recovering the signature
   * (the bot still signs each one; every other check of the permit still runs).
   */
  trustSignaturesOf(account: Address): void {
    this.trusted.add(account.toLowerCase());
  }

  trustsSignaturesOf(account: Address): boolean {
    return this.trusted.size > 0 && this.trusted.has(account.toLowerCase());
  }
}

function key(account: Address, signer: Address): string {
  return `${account.toLowerCase()}:${signer.toLowerCase()}`;
}
