import type { Address } from '../../core/address.js';
import type { Clock } from '../../core/clock.js';
import type { ChainCheck, SignerStatus, SimChain } from '../simContext.js';
import { AccountRegistry } from './accountRegistry.js';
import { AllowanceBook } from './allowanceBook.js';
import { BlockProducer } from './blockProducer.js';
import { JwtIssuer } from './jwtIssuer.js';
import { LoginNonces } from './loginNonces.js';
import { NonceBook } from './nonceBook.js';
import { SignerRegistry } from './signerRegistry.js';

export interface SimChainStateOptions {
  readonly clock: Clock;
  readonly seed: number;
  readonly registrationLagMs: number;
}

/** The on-chain side of the simulator: blocks, nonces, signers, registrations, logins, allowances. */
export class SimChainState implements SimChain {
  readonly clock: Clock;
  readonly blocks: BlockProducer;
  readonly nonces = new NonceBook();
  readonly signers = new SignerRegistry();
  readonly accounts: AccountRegistry;
  readonly loginNonces = new LoginNonces();
  readonly jwt = new JwtIssuer();
  readonly allowances = new AllowanceBook();

  constructor(options: SimChainStateOptions) {
    this.clock = options.clock;
    this.blocks = new BlockProducer(options.seed);
    this.accounts = new AccountRegistry(options.registrationLagMs);
  }

  get blockNumber(): number {
    return this.blocks.blockNumber;
  }

  signerStatus(account: Address, signer: Address): SignerStatus {
    return this.signers.status(account, signer);
  }

  issueLoginNonce(account: Address | undefined): `0x${string}` {
    return this.loginNonces.issue(account, this.clock.now());
  }

  consumeLoginNonce(account: Address, nonce: string): ChainCheck<true> {
    const failure = this.loginNonces.consume(account, nonce, this.clock.now());
    if (failure === undefined) return { ok: true, value: true };
    return {
      ok: false,
      status: 401,
      code: 'Unauthenticated',
      message: `Unauthenticated: nonce ${failure === 'expired' ? 'expired' : 'unknown or already used'}`,
    };
  }

  verifyJwt(token: string): ChainCheck<Address> {
    const result = this.jwt.verify(token, this.clock.now());
    if (result.ok) return { ok: true, value: result.account };
    return {
      ok: false,
      status: 401,
      code: 'Unauthenticated',
      message: `Unauthenticated: ${result.failure === 'expired' ? 'token expired' : 'invalid token'}`,
    };
  }

  isRegistered(account: Address): boolean {
    return this.accounts.isRegistered(account, this.clock.now());
  }
}
