import type { Observable } from 'rxjs';
import type { Address } from '../core/address.js';
import type { Clock } from '../core/clock.js';
import type { SigningContext } from '../protocol/signingContext.js';
import type { SelectorTable } from '../protocol/selectors.js';
import type { Eip712DomainWire } from '../venue/schemas/restAuth.js';
import type { SystemConfigWire } from '../venue/schemas/restSystem.js';
import type { Exchange } from './exchange/exchange.js';
import type { ExchangeEvent } from './exchange/exchangeEvents.js';
import type { MarketDefinition } from './exchange/markets.js';
import type { SubscribeFault } from './ws/subscribeFault.js';
import type { WireDeparture } from './ws/wireDepartures.js';

/**
 * The seam between the simulator's HTTP side (chain, REST, startSim) and its WebSocket side:
 * everything the WebSocket server needs, handed over once by `startSim`. The WebSocket part
 * reads state and subscribes to `events`; it never mutates the chain except through the
 * login-nonce and JWT checks below.
 */

/** Faults injected per request; all off by default. */
export interface SimFaults {
  /** Added to every REST answer, in milliseconds. */
  readonly latencyMs: number;
  /** Uniform extra delay 0..jitterMs on top of latencyMs. */
  readonly jitterMs: number;
  /** Share (0..1) of REST requests answered with a 5xx. */
  readonly errorRate: number;
  /**
   * Share (0..1) of those 5xx answers given AFTER a state-changing action was applied, as on the
   * real venue where the transaction is mined before the reply is lost.
   */
  readonly errorAfterActionShare: number;
  /**
   * Every WebSocket connection is dropped (ended without a close frame) about every this many ms;
   * 0 = never. Each gap is drawn from 0.5x..1.5x by a generator seeded from the simulator seed.
   */
  readonly wsDropEveryMs: number;
  /** Every WebSocket stream stalls about every this many ms (quiet time between stalls); 0 = never. */
  readonly wsStallEveryMs: number;
  /** How long each of those stalls lasts: nothing is sent, nothing is closed. */
  readonly wsStallForMs: number;
}

export const NO_FAULTS: SimFaults = Object.freeze({
  latencyMs: 0,
  jitterMs: 0,
  errorRate: 0,
  errorAfterActionShare: 0.5,
  wsDropEveryMs: 0,
  wsStallEveryMs: 0,
  wsStallForMs: 1_000,
});

/** Fully resolved options (defaults applied) of a running simulator. */
export interface SimOptions {
  readonly host: string;
  readonly port: number;
  /** Seeds addresses, tx hashes, the oracle walk and the synthetic makers (uint32). */
  readonly seed: number;
  /** Orders, fills and trades numbered from 1 every run; false: from random bases (unique across runs). */
  readonly deterministicIds: boolean;
  /** Block interval; 0 disables automatic blocks (tests then call `controls.advanceBlocks`). */
  readonly blockMs: number;
  /** Time between a faucet deposit and the account counting as registered. */
  readonly registrationLagMs: number;
  readonly faults: SimFaults;
  readonly markets: readonly MarketDefinition[];
  readonly selectors: SelectorTable;
  readonly chainId: number;
  /** Largest accepted request body. */
  readonly bodyLimitBytes: number;
  /** REST requests allowed per client IP per 10 s (venue-facts: 500); 0 disables the limit. */
  readonly restRequestsPer10s: number;
  /** Deliberate departures from the venue's wire (`ws/wireDepartures.ts`); empty in normal runs. */
  readonly wireDepartures: readonly WireDeparture[];
  /** Time from a TP/SL's trigger to its execution (the OperatorHub's transaction), in milliseconds. */
  readonly tpslLagMs: number;
  /** Serve the test controls under `/_sim/` (loopback clients only); off unless asked for. */
  readonly admin: boolean;
  /** Refuse every TP/SL placement (DOC: placement "blocked pending signature verification"). */
  readonly refuseTpsl: boolean;
}

/** What one mined block or action carries. */
export interface BlockStamp {
  readonly blockNumber: number;
  readonly timestampMs: number;
  readonly txHash: `0x${string}`;
}

export type SimEvent =
  /** A new block: the oracle channel broadcasts once per block. */
  | ({ readonly type: 'block' } & BlockStamp)
  /** Something the exchange core produced, stamped with the transaction that caused it. */
  | ({ readonly type: 'exchange'; readonly event: ExchangeEvent } & BlockStamp)
  /** A signer changed status (1 Active, 3 Revoked): authenticated sockets of a revoked signer may be dropped. */
  | ({
      readonly type: 'signer';
      readonly account: Address;
      readonly signer: Address;
      readonly status: SignerStatus;
    } & BlockStamp);

/** 0 = never registered (the venue's "not found"), 1 = Active, 3 = Revoked. */
export type SignerStatus = 0 | 1 | 3;

/** A check that either yields a value or the venue's error text and HTTP status. */
export type ChainCheck<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly status: number; readonly code: string; readonly message: string };

/** The chain-side state the WebSocket server consults. */
export interface SimChain {
  /** Current head block. */
  readonly blockNumber: number;
  signerStatus(account: Address, signer: Address): SignerStatus;
  /**
   * A fresh 0x + 64 hex nonce for login or WebSocket auth; single use, expires after 5 minutes.
   * Bound to `account` when one asked; without one (the venue's `account` is optional), any account may use it.
   */
  issueLoginNonce(account: Address | undefined): `0x${string}`;
  /** Consumes a nonce issued for `account` (any 0x/non-0x, any case); fails when unknown, used or expired. */
  consumeLoginNonce(account: Address, nonce: string): ChainCheck<true>;
  /** Verifies an access token (signature and expiry) and returns its account. */
  verifyJwt(token: string): ChainCheck<Address>;
  /** True once the faucet deposit has been indexed (after the registration lag). */
  isRegistered(account: Address): boolean;
}

/** What the WebSocket part returns from `attachSimWebSocket`, so controls can reach it. */
export interface SimWebSocketHandle {
  /** Closes every client connection (test control); returns how many were dropped. */
  dropConnections(): number;
  /** While stalled, no channel frame is sent (they are dropped, as a stuck stream would lose them). */
  setStalled(stalled: boolean): void;
  /** Closes the connections authenticated as `account`; returns how many. */
  dropAccount(account: string): number;
  /** Sets (or clears, with undefined) the subscribe-filter fault. */
  setSubscribeFault(fault: SubscribeFault | undefined): void;
  close(): Promise<void>;
}

/** A snapshot of internal state for assertions in tests. */
export interface SimStateView {
  readonly blockNumber: number;
  readonly nonce: (account: Address) => {
    readonly anchor: bigint;
    readonly bitmap: bigint;
    readonly currentIndex: number;
  };
  readonly signerStatus: (account: Address, signer: Address) => SignerStatus;
  readonly isRegistered: (account: Address) => boolean;
  /** Remaining operator-hub budget in USD wei, or undefined when none was approved. */
  readonly allowance: (account: Address) => { readonly budgetWei: bigint; readonly expiry: number } | undefined;
  /** The account's TP/SL orders, oldest first, with why the last execution attempt did not go through. */
  readonly tpslOrders: (account: Address) => readonly SimTpslView[];
  readonly faults: SimFaults;
  readonly registrationLagMs: number;
}

/** A TP/SL order as a test sees it beside its wire record. */
export interface SimTpslView {
  readonly orderId: string;
  readonly status: string;
  /** The last reason it did not execute (budget spent or expired, nothing to reduce), if any. */
  readonly refusal?: string;
}

/** First-class test controls; also exposed to the WebSocket part. */
export interface SimControls {
  /** Mines `count` blocks now (oracle moves, makers act, GTT orders expire). Returns the new head. */
  advanceBlocks(count?: number): number;
  /** Sets mark and index of a market (decimal price string) and broadcasts it with the next block. */
  setMark(marketId: number, price: string): void;
  setRegistrationLag(ms: number): void;
  /** Replaces the given fault settings; unspecified ones keep their value. */
  setFaults(faults: Partial<SimFaults>): void;
  /** Closes every WebSocket connection; returns how many (0 before the WebSocket part is attached). */
  dropWebSockets(): number;
  /** Closes only the WebSocket connections authenticated as `account` (auth_v2 or JWT); returns how many. */
  dropAccountWebSockets(account: Address): number;
  /** Stops (true) or resumes (false) every WebSocket stream. */
  stallStreams(stalled: boolean): void;
  /**
   * Test fault, off by default: filtered subscribes get another filter applied and acked (all
   * markets, or the given ids), as if `market_ids` did not reach the venue intact. Undefined clears it.
   */
  setSubscribeFault(fault: SubscribeFault | undefined): void;
  /** Registers an account immediately, bypassing the lag (credits nothing). */
  registerNow(account: Address): void;
  state(): SimStateView;
}

export interface SimContext {
  readonly options: SimOptions;
  readonly clock: Clock;
  readonly chain: SimChain;
  readonly exchange: Exchange;
  /** Every block, exchange event and signer change, in order. Hot: no replay. */
  readonly events: Observable<SimEvent>;
  readonly signingContext: SigningContext;
  /** `data` of GET /v1/auth/eip712-domain. */
  readonly domainWire: Eip712DomainWire;
  /** `data` of GET /v1/system/config. */
  readonly systemConfigWire: SystemConfigWire;
  readonly controls: SimControls;
}
