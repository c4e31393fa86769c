import {
  bytesToHex,
  compactSignatureToSignature,
  concat,
  domainSeparator,
  encodeAbiParameters,
  hexToBytes,
  keccak256,
  parseSignature,
  recoverTypedDataAddress,
  stringToBytes,
  type Hex,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { startSim, type RunningSim, type StartSimConfig } from '../../src/sim/index.js';

/**
 * An independent client for the simulator's e2e tests: it signs with viem only (typed data built
 * here from the domain and router the simulator serves), never with the project's fast path, so
 * a fault shared by our signer and our verifier cannot hide.
 */
export interface HttpAnswer {
  readonly status: number;
  readonly json: Record<string, any>;
}

export interface Domain {
  readonly name: string;
  readonly version: string;
  readonly chainId: bigint;
  readonly verifyingContract: Hex;
}

export const SELECTORS = {
  placeOrder: 'SVC_PERPS_PLACE_ORDER_V1',
  cancelOrder: 'SVC_PERPS_CANCEL_ORDER_V1',
  cancelAllOrders: 'SVC_PERPS_CANCEL_ALL_ORDERS_V1',
  updateLeverage: 'SVC_PERPS_UPDATE_LEVERAGE_V1',
  updateMarginMode: 'SVC_PERPS_UPDATE_MARGIN_MODE_V1',
  updateIsolatedMargin: 'SVC_PERPS_UPDATE_ISOLATED_MARGIN_V1',
} as const;

const selectorWord = (selector: string): Hex => keccak256(stringToBytes(selector));
const words = (types: readonly string[], values: readonly unknown[]): Hex =>
  keccak256(
    encodeAbiParameters(
      types.map((type) => ({ type })),
      values as unknown[],
    ),
  );

export const actionHash = {
  place(
    orderWord: bigint,
    options: { builderId?: number; feeBps?: number; clientOrderId?: bigint; ttlUnits?: number } = {},
  ): Hex {
    const header = 1 | (options.builderId ? 2 : 0) | (options.clientOrderId ? 4 : 0) | (options.ttlUnits ? 0x10 : 0);
    const types = ['bytes32', 'uint8', 'uint88', 'uint16', ...(options.feeBps ? ['uint16'] : []), 'uint64', 'uint16'];
    const values = [
      selectorWord(SELECTORS.placeOrder),
      header,
      orderWord,
      options.builderId ?? 0,
      ...(options.feeBps ? [options.feeBps] : []),
      options.clientOrderId ?? 0n,
      options.ttlUnits ?? 0,
    ];
    return words(types, values);
  },
  cancel: (marketId: number, restingId: bigint): Hex =>
    words(['bytes32', 'uint256', 'uint256'], [selectorWord(SELECTORS.cancelOrder), BigInt(marketId), restingId]),
  cancelAll: (marketId: number): Hex =>
    words(['bytes32', 'uint256'], [selectorWord(SELECTORS.cancelAllOrders), BigInt(marketId)]),
  leverage: (marketId: number, leverage: number): Hex =>
    words(['bytes32', 'uint16', 'uint8'], [selectorWord(SELECTORS.updateLeverage), marketId, leverage]),
  marginMode: (marketId: number, mode: number): Hex =>
    words(['bytes32', 'uint16', 'uint8'], [selectorWord(SELECTORS.updateMarginMode), marketId, mode]),
  isolatedMargin: (marketId: number, amount: bigint): Hex =>
    words(['bytes32', 'uint16', 'int128'], [selectorWord(SELECTORS.updateIsolatedMargin), marketId, amount]),
};

export interface OrderFields {
  market_id: number;
  size_steps: number;
  price_ticks: number;
  side: number;
  post_only: boolean;
  reduce_only: boolean;
  stp_mode: number;
  order_type: number;
  time_in_force: number;
}

/** The spec's packing, written out again here on purpose. */
export function orderWord(o: OrderFields): bigint {
  const flags =
    o.side |
    (o.post_only ? 2 : 0) |
    (o.reduce_only ? 4 : 0) |
    (o.stp_mode << 3) |
    (o.order_type << 5) |
    (o.time_in_force << 6);
  return (
    (BigInt(o.market_id) << 70n) |
    (BigInt(o.size_steps) << 38n) |
    (BigInt(o.price_ticks) << 14n) |
    (BigInt(flags) << 6n) |
    (1n << 1n)
  );
}

/** The optional place fields, under their body names (venue-facts "Orders"). */
export interface PlaceExtras {
  builder_id?: number;
  builder_fee_bps?: number;
  /** uint64 as a decimal string. */
  client_order_id?: string;
  ttl_units?: number;
}

/** The place action hash of an order as sent with `extras`. */
export function placeHash(order: OrderFields, extras: PlaceExtras = {}): Hex {
  return actionHash.place(orderWord(order), {
    ...(extras.builder_id === undefined ? {} : { builderId: extras.builder_id }),
    ...(extras.builder_fee_bps === undefined ? {} : { feeBps: extras.builder_fee_bps }),
    ...(extras.client_order_id === undefined ? {} : { clientOrderId: BigInt(extras.client_order_id) }),
    ...(extras.ttl_units === undefined ? {} : { ttlUnits: extras.ttl_units }),
  });
}

export function limitOrder(overrides: Partial<OrderFields> = {}): OrderFields {
  return {
    market_id: 1,
    size_steps: 20,
    price_ticks: 500_000,
    side: 0,
    post_only: false,
    reduce_only: false,
    stp_mode: 0,
    order_type: 1,
    time_in_force: 0,
    ...overrides,
  };
}

export type Encoding = 'compact64' | 'full65';

/** The spec's RevokeSigner struct, as viem types it. */
export const REVOKE_SIGNER_TYPES = {
  RevokeSigner: [
    { name: 'account', type: 'address' },
    { name: 'signer', type: 'address' },
    { name: 'nonceAnchor', type: 'uint48' },
    { name: 'nonceBitmap', type: 'uint8' },
  ],
} as const;

/**
 * An EIP-712 digest written out by hand over a literal type string, for structs of static fields
 * (address, uintN, bytes32) only: viem builds the type string itself, so this is how a test signs
 * over a variant (a stray space) that hashes differently.
 */
export function digestOverTypeString(
  domain: Domain,
  typeString: string,
  fields: readonly { type: string; value: unknown }[],
): Hex {
  const structHash = keccak256(
    encodeAbiParameters(
      [{ type: 'bytes32' }, ...fields.map((field) => ({ type: field.type }))],
      [keccak256(stringToBytes(typeString)), ...fields.map((field) => field.value)],
    ),
  );
  return keccak256(concat(['0x1901', domainSeparator({ domain }), structHash]));
}

/** The spec's VerifyWitness struct, as viem types it. */
export const VERIFY_WITNESS_TYPES = {
  VerifyWitness: [
    { name: 'account', type: 'address' },
    { name: 'target', type: 'address' },
    { name: 'hash', type: 'bytes32' },
    { name: 'nonceAnchor', type: 'uint48' },
    { name: 'nonceBitmap', type: 'uint8' },
    { name: 'deadline', type: 'uint32' },
  ],
} as const;

function encodeSignature(signature: Hex, encoding: Encoding): string {
  const bytes = hexToBytes(signature);
  if (encoding === 'full65') return Buffer.from(bytes).toString('base64');
  const { yParity } = parseSignature(signature);
  const compact = bytes.slice(0, 64);
  if (yParity === 1) compact[32] = (compact[32] ?? 0) | 0x80;
  return Buffer.from(compact).toString('base64');
}

export interface PermitOptions {
  anchor: bigint;
  bit: number;
  deadline?: number;
  encoding?: Encoding;
  /** Defaults to the router; tests put something else here on purpose. */
  target?: Hex;
  /** Signed anchor when it must differ from the sent one. */
  signedAnchor?: bigint;
}

export class SimRestHarness {
  domain!: Domain;
  router!: Hex;
  operatorHub!: Hex;

  private constructor(readonly sim: RunningSim) {}

  static async start(config: StartSimConfig = {}): Promise<SimRestHarness> {
    const harness = new SimRestHarness(await startSim({ port: 0, blockMs: 50, registrationLagMs: 150, ...config }));
    const domain = await harness.get('/v1/auth/eip712-domain');
    const system = await harness.get('/v1/system/config');
    harness.domain = {
      name: domain.json['data'].name,
      version: domain.json['data'].version,
      chainId: BigInt(domain.json['data'].chain_id),
      verifyingContract: domain.json['data'].verifying_contract,
    };
    harness.router = system.json['data'].addresses.router;
    harness.operatorHub = system.json['data'].addresses.operator_hub;
    return harness;
  }

  close(): Promise<void> {
    return this.sim.close();
  }

  async request(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<HttpAnswer> {
    const init: RequestInit = { method, headers: { 'content-type': 'application/json', ...headers } };
    if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
    const response = await fetch(`${this.sim.restUrl}${path}`, init);
    const text = await response.text();
    return { status: response.status, json: JSON.parse(text) as Record<string, any> };
  }

  get(path: string): Promise<HttpAnswer> {
    return this.request('GET', path);
  }

  post(path: string, body: unknown, headers?: Record<string, string>): Promise<HttpAnswer> {
    return this.request('POST', path, body, headers);
  }

  async nonceState(account: Hex): Promise<{ nonce_anchor: string; current_bitmap_index: number; bitmap: string }> {
    return (await this.get(`/v1/nonce-state/${account}`)).json['data'];
  }

  async registerSigner(
    account: PrivateKeyAccount,
    signer: PrivateKeyAccount,
    anchor: bigint,
    bit: number,
    message = 'perpbot e2e',
  ): Promise<HttpAnswer> {
    return this.post('/v1/auth/register-signer', await this.registerSignerBody(account, signer, anchor, bit, message));
  }

  async registerSignerBody(
    account: PrivateKeyAccount,
    signer: PrivateKeyAccount,
    anchor: bigint,
    bit: number,
    message = 'perpbot e2e',
  ): Promise<Record<string, unknown>> {
    const expiration = Math.floor(Date.now() / 1000) + 3600;
    const account_signature = await account.signTypedData({
      domain: this.domain,
      primaryType: 'RegisterSigner',
      types: {
        RegisterSigner: [
          { name: 'account', type: 'address' },
          { name: 'signer', type: 'address' },
          { name: 'message', type: 'string' },
          { name: 'expiration', type: 'uint32' },
          { name: 'nonceAnchor', type: 'uint48' },
          { name: 'nonceBitmap', type: 'uint8' },
        ],
      },
      message: {
        account: account.address,
        signer: signer.address,
        message,
        expiration,
        nonceAnchor: Number(anchor),
        nonceBitmap: bit,
      },
    });
    const signer_signature = await signer.signTypedData({
      domain: this.domain,
      primaryType: 'VerifySigner',
      types: {
        VerifySigner: [
          { name: 'account', type: 'address' },
          { name: 'nonceAnchor', type: 'uint48' },
          { name: 'nonceBitmap', type: 'uint8' },
        ],
      },
      message: { account: account.address, nonceAnchor: Number(anchor), nonceBitmap: bit },
    });
    return {
      account: account.address,
      signer: signer.address,
      message,
      expiration: String(expiration),
      nonce_anchor: anchor.toString(),
      nonce_bitmap_index: bit,
      account_signature,
      signer_signature,
    };
  }

  async revokeSigner(account: PrivateKeyAccount, signer: Hex, anchor: bigint, bit: number): Promise<HttpAnswer> {
    return this.post('/v1/auth/revoke-signer', await this.revokeSignerBody(account, signer, anchor, bit));
  }

  async revokeSignerBody(
    account: PrivateKeyAccount,
    signer: Hex,
    anchor: bigint,
    bit: number,
  ): Promise<Record<string, unknown>> {
    const account_signature = await account.signTypedData({
      domain: this.domain,
      primaryType: 'RevokeSigner',
      types: REVOKE_SIGNER_TYPES,
      message: { account: account.address, signer, nonceAnchor: Number(anchor), nonceBitmap: bit },
    });
    return {
      account: account.address,
      signer,
      nonce_anchor: anchor.toString(),
      nonce_bitmap_index: bit,
      account_signature,
    };
  }

  async permit(
    signer: PrivateKeyAccount,
    account: Hex,
    hash: Hex,
    options: PermitOptions,
  ): Promise<Record<string, unknown>> {
    const deadline = options.deadline ?? Math.floor(Date.now() / 1000) + 300;
    const signature = await signer.signTypedData({
      domain: this.domain,
      primaryType: 'VerifyWitness',
      types: VERIFY_WITNESS_TYPES,
      message: {
        account,
        target: options.target ?? this.router,
        hash,
        nonceAnchor: Number(options.signedAnchor ?? options.anchor),
        nonceBitmap: options.bit,
        deadline,
      },
    });
    return {
      account,
      signer: signer.address,
      nonce_anchor: options.anchor.toString(),
      nonce_bitmap_index: options.bit,
      deadline,
      signature: encodeSignature(signature, options.encoding ?? 'compact64'),
    };
  }

  /**
   * Who a sent permit recovers to, computed here with viem alone: the VerifyWitness the server
   * rebuilds from the sent values (target = the router, `hash` = the action hash of the sent
   * body) and the permit's base64 signature, 64 or 65 bytes. This is the address a
   * `SignerNotAuthorized(<address>)` answer must name.
   */
  recoverPermitSigner(permit: Record<string, unknown>, hash: Hex): Promise<Hex> {
    const bytes = Buffer.from(String(permit['signature']), 'base64');
    const signature =
      bytes.length === 64
        ? compactSignatureToSignature({
            r: bytesToHex(bytes.subarray(0, 32)),
            yParityAndS: bytesToHex(bytes.subarray(32, 64)),
          })
        : bytesToHex(bytes);
    return recoverTypedDataAddress({
      domain: this.domain,
      primaryType: 'VerifyWitness',
      types: VERIFY_WITNESS_TYPES,
      message: {
        account: permit['account'] as Hex,
        target: this.router,
        hash,
        nonceAnchor: Number(permit['nonce_anchor']),
        nonceBitmap: Number(permit['nonce_bitmap_index']),
        deadline: Number(permit['deadline']),
      },
      signature,
    });
  }

  /** A funded, registered account with an Active signer; the signer used nonce (0, 0). */
  async trader(): Promise<{ account: PrivateKeyAccount; signer: PrivateKeyAccount }> {
    const account = privateKeyToAccount(generatePrivateKey());
    const signer = privateKeyToAccount(generatePrivateKey());
    const deposit = await this.post('/v1/account/deposit', { account: account.address, amount: '1000' });
    if (deposit.status !== 200) throw new Error(`deposit failed: ${JSON.stringify(deposit.json)}`);
    const registered = await this.registerSigner(account, signer, 0n, 0);
    if (registered.status !== 200) throw new Error(`register failed: ${JSON.stringify(registered.json)}`);
    this.sim.controls.registerNow(account.address);
    return { account, signer };
  }

  async place(
    signer: PrivateKeyAccount,
    account: Hex,
    order: OrderFields,
    options: PermitOptions,
    extras: PlaceExtras = {},
  ): Promise<HttpAnswer> {
    const permit = await this.permit(signer, account, placeHash(order, extras), options);
    return this.post('/v1/orders/place', { ...order, ...extras, permit });
  }
}

export function newKey(): PrivateKeyAccount {
  return privateKeyToAccount(generatePrivateKey());
}

export function errorOf(answer: HttpAnswer): { status: number; code: string; message: string } {
  return { status: answer.status, code: answer.json['error']?.code, message: answer.json['error']?.message };
}

export async function eventually<T>(
  probe: () => Promise<T>,
  accept: (value: T) => boolean,
  timeoutMs = 5000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (accept(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
