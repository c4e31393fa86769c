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
}

function key(account: Address, signer: Address): string {
  return `${account.toLowerCase()}:${signer.toLowerCase()}`;
}
