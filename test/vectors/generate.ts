/**
 * Produces test/vectors/protocol.json using viem only (never the project's own encoders), so the
 * vectors are an independent reference. Run: npx tsx test/vectors/generate.ts
 */
import { writeFileSync } from 'node:fs';
import { encodeAbiParameters, hashTypedData, keccak256, toHex, type AbiParameter } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

const ACCOUNT_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const SIGNER_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const account = privateKeyToAccount(ACCOUNT_KEY);
const signer = privateKeyToAccount(SIGNER_KEY);
const domainWire = {
  name: 'RISEx',
  version: '1',
  chain_id: '11155931',
  verifying_contract: '0x1111111111111111111111111111111111111111',
};
const router = '0x2222222222222222222222222222222222222222';
const domain = {
  name: domainWire.name,
  version: domainWire.version,
  chainId: BigInt(domainWire.chain_id),
  verifyingContract: domainWire.verifying_contract as `0x${string}`,
};

const selectors = {
  placeOrder: 'SVC_PERPS_PLACE_ORDER_V1',
  cancelOrder: 'SVC_PERPS_CANCEL_ORDER_V1',
  cancelAllOrders: 'SVC_PERPS_CANCEL_ALL_ORDERS_V1',
  updateLeverage: 'SVC_PERPS_UPDATE_LEVERAGE_V1',
  updateMarginMode: 'SVC_PERPS_UPDATE_MARGIN_MODE_V1',
  updateIsolatedMargin: 'SVC_PERPS_UPDATE_ISOLATED_MARGIN_V1',
};

function actionHash(selector: string, params: [string, bigint][]): string {
  const types: AbiParameter[] = [{ type: 'bytes32' }, ...params.map(([type]) => ({ type }))];
  return keccak256(encodeAbiParameters(types, [keccak256(toHex(selector)), ...params.map(([, v]) => v)]));
}

// Order word straight from the spec's formula.
function word(o: {
  marketId: bigint;
  sizeSteps: bigint;
  priceTicks: bigint;
  side: bigint;
  postOnly: boolean;
  reduceOnly: boolean;
  stpMode: bigint;
  orderType: bigint;
  timeInForce: bigint;
}): bigint {
  const flags =
    o.side |
    (o.postOnly ? 2n : 0n) |
    (o.reduceOnly ? 4n : 0n) |
    (o.stpMode << 3n) |
    (o.orderType << 5n) |
    (o.timeInForce << 6n);
  return (o.marketId << 70n) | (o.sizeSteps << 38n) | (o.priceTicks << 14n) | (flags << 6n) | (1n << 1n);
}

const orders = [
  {
    name: 'BTC limit buy GTC',
    marketId: 1n,
    sizeSteps: 15n,
    priceTicks: 650005n,
    side: 0n,
    postOnly: false,
    reduceOnly: false,
    stpMode: 0n,
    orderType: 1n,
    timeInForce: 0n,
  },
  {
    name: 'ETH limit sell post-only',
    marketId: 2n,
    sizeSteps: 1000n,
    priceTicks: 320012n,
    side: 1n,
    postOnly: true,
    reduceOnly: false,
    stpMode: 2n,
    orderType: 1n,
    timeInForce: 0n,
  },
  {
    name: 'market sell reduce-only IOC',
    marketId: 1n,
    sizeSteps: 4294967295n,
    priceTicks: 16777215n,
    side: 1n,
    postOnly: false,
    reduceOnly: true,
    stpMode: 1n,
    orderType: 0n,
    timeInForce: 3n,
  },
  {
    name: 'market buy FOK max market id',
    marketId: 65535n,
    sizeSteps: 1n,
    priceTicks: 1n,
    side: 0n,
    postOnly: false,
    reduceOnly: false,
    stpMode: 0n,
    orderType: 0n,
    timeInForce: 2n,
  },
].map((o) => ({ ...o, word: word(o) }));

const places = [
  { order: 0, builderId: 0n, builderFeeBps: 0n, clientOrderId: 0n, ttlUnits: 0n },
  { order: 1, builderId: 7n, builderFeeBps: 0n, clientOrderId: 0n, ttlUnits: 0n },
  { order: 2, builderId: 7n, builderFeeBps: 25n, clientOrderId: 123456789n, ttlUnits: 0n },
  { order: 3, builderId: 0n, builderFeeBps: 0n, clientOrderId: 18446744073709551615n, ttlUnits: 600n },
].map((p) => {
  const header =
    1n | (p.builderId !== 0n ? 2n : 0n) | (p.clientOrderId !== 0n ? 4n : 0n) | (p.ttlUnits !== 0n ? 16n : 0n);
  const params: [string, bigint][] = [
    ['uint8', header],
    ['uint88', orders[p.order]!.word],
    ['uint16', p.builderId],
    ...(p.builderFeeBps > 0n ? [['uint16', p.builderFeeBps] as [string, bigint]] : []),
    ['uint64', p.clientOrderId],
    ['uint16', p.ttlUnits],
  ];
  return { ...p, headerFlags: Number(header), hash: actionHash(selectors.placeOrder, params) };
});

const actions = {
  cancel: [
    { marketId: 1n, restingOrderId: 42n },
    { marketId: 2n, restingOrderId: (1n << 63n) + 5n },
  ].map((c) => ({
    ...c,
    hash: actionHash(selectors.cancelOrder, [
      ['uint256', c.marketId],
      ['uint256', c.restingOrderId],
    ]),
  })),
  cancelAll: [{ marketId: 1n }, { marketId: 3n }].map((c) => ({
    ...c,
    hash: actionHash(selectors.cancelAllOrders, [['uint256', c.marketId]]),
  })),
  leverage: [
    { marketId: 1n, leverage: 1n },
    { marketId: 1n, leverage: 255n },
  ].map((c) => ({
    ...c,
    hash: actionHash(selectors.updateLeverage, [
      ['uint16', c.marketId],
      ['uint8', c.leverage],
    ]),
  })),
  marginMode: [
    { marketId: 1n, marginMode: 0n },
    { marketId: 2n, marginMode: 1n },
  ].map((c) => ({
    ...c,
    hash: actionHash(selectors.updateMarginMode, [
      ['uint16', c.marketId],
      ['uint8', c.marginMode],
    ]),
  })),
  isolatedMargin: [
    { marketId: 1n, amount: 100000000000000000000n },
    { marketId: 1n, amount: -5n },
    { marketId: 2n, amount: -(1n << 127n) },
  ].map((c) => ({
    ...c,
    hash: actionHash(selectors.updateIsolatedMargin, [
      ['uint16', c.marketId],
      ['int128', c.amount],
    ]),
  })),
};

const t = (name: string, fields: [string, string][]) => ({ [name]: fields.map(([n, type]) => ({ name: n, type })) });
const tpslFields: [string, string][] = [
  ['account', 'address'],
  ['marketId', 'uint64'],
  ['side', 'uint8'],
  ['size', 'string'],
  ['stopType', 'uint8'],
  ['stopPrice', 'string'],
  ['limitPrice', 'string'],
  ['orderType', 'uint8'],
  ['stopPriceOption', 'uint8'],
  ['tif', 'uint8'],
  ['deadline', 'uint32'],
];
const structs: {
  primaryType: string;
  /** The project's name of a struct whose primary type another struct shares. */
  variant?: string;
  key: string;
  types: Record<string, { name: string; type: string }[]>;
  message: Record<string, unknown>;
}[] = [
  {
    primaryType: 'RegisterSigner',
    key: 'account',
    types: t('RegisterSigner', [
      ['account', 'address'],
      ['signer', 'address'],
      ['message', 'string'],
      ['expiration', 'uint32'],
      ['nonceAnchor', 'uint48'],
      ['nonceBitmap', 'uint8'],
    ]),
    message: {
      account: account.address,
      signer: signer.address,
      message: 'perpbot session key',
      expiration: 1893456000n,
      nonceAnchor: 8n,
      nonceBitmap: 0n,
    },
  },
  {
    primaryType: 'VerifySigner',
    key: 'signer',
    types: t('VerifySigner', [
      ['account', 'address'],
      ['nonceAnchor', 'uint48'],
      ['nonceBitmap', 'uint8'],
    ]),
    message: { account: account.address, nonceAnchor: 8n, nonceBitmap: 0n },
  },
  {
    primaryType: 'RevokeSigner',
    key: 'account',
    types: t('RevokeSigner', [
      ['account', 'address'],
      ['signer', 'address'],
      ['nonceAnchor', 'uint48'],
      ['nonceBitmap', 'uint8'],
    ]),
    message: { account: account.address, signer: signer.address, nonceAnchor: 9n, nonceBitmap: 207n },
  },
  {
    primaryType: 'VerifyWitness',
    key: 'signer',
    types: t('VerifyWitness', [
      ['account', 'address'],
      ['target', 'address'],
      ['hash', 'bytes32'],
      ['nonceAnchor', 'uint48'],
      ['nonceBitmap', 'uint8'],
      ['deadline', 'uint32'],
    ]),
    message: {
      account: account.address,
      target: router,
      hash: places[0]!.hash,
      nonceAnchor: 8n,
      nonceBitmap: 3n,
      deadline: 1893456000n,
    },
  },
  {
    primaryType: 'Login',
    key: 'account',
    types: t('Login', [
      ['account', 'address'],
      ['nonce', 'uint256'],
      ['deadline', 'uint32'],
    ]),
    message: { account: account.address, nonce: BigInt(`0x${'5a'.repeat(32)}`), deadline: 1893456000n },
  },
  {
    primaryType: 'RegisterV2',
    key: 'signer',
    types: t('RegisterV2', [
      ['signer', 'address'],
      ['message', 'string'],
      ['nonce', 'uint256'],
    ]),
    message: { signer: signer.address, message: 'WebSocket Authentication', nonce: BigInt(`0x${'0f'.repeat(32)}`) },
  },
  {
    primaryType: 'PermitSingle',
    key: 'account',
    types: t('PermitSingle', [
      ['account', 'address'],
      ['operator', 'address'],
      ['budget', 'uint96'],
      ['allowanceExpiry', 'uint32'],
      ['nonceAnchor', 'uint48'],
      ['nonceBitmap', 'uint8'],
    ]),
    message: {
      account: account.address,
      operator: '0x3333333333333333333333333333333333333333',
      budget: 1000n * 10n ** 18n,
      allowanceExpiry: 1893456000n,
      nonceAnchor: 8n,
      nonceBitmap: 1n,
    },
  },
  // TP/SL (venue-tpsl.md "Typed data"): signed by the session signer; decimals are strings.
  {
    primaryType: 'PlaceTpslOrder',
    key: 'signer',
    types: t('PlaceTpslOrder', tpslFields),
    message: {
      account: account.address,
      marketId: 1n,
      side: 1n,
      size: '0.015',
      stopType: 1n,
      stopPrice: '61250.5',
      limitPrice: '0',
      orderType: 0n,
      stopPriceOption: 0n,
      tif: 3n,
      deadline: 1893456000n,
    },
  },
  {
    // The variant two other clients sign: the same type name, sizePercentBps appended.
    primaryType: 'PlaceTpslOrder',
    variant: 'PlaceTpslOrderSized',
    key: 'signer',
    types: t('PlaceTpslOrder', [...tpslFields, ['sizePercentBps', 'uint32']]),
    message: {
      account: account.address,
      marketId: 2n,
      side: 0n,
      size: '0',
      stopType: 0n,
      stopPrice: '2890',
      limitPrice: '2891.25',
      orderType: 1n,
      stopPriceOption: 1n,
      tif: 0n,
      deadline: 4294967295n,
      sizePercentBps: 10000n,
    },
  },
  {
    primaryType: 'CancelTpslOrder',
    key: 'signer',
    types: t('CancelTpslOrder', [
      ['account', 'address'],
      ['orderId', 'string'],
      ['deadline', 'uint32'],
    ]),
    message: { account: account.address, orderId: 'conditional-1', deadline: 1893456000n },
  },
  {
    primaryType: 'CancelAllTpslOrders',
    key: 'signer',
    types: t('CancelAllTpslOrders', [
      ['account', 'address'],
      ['marketId', 'uint64'],
      ['deadline', 'uint32'],
    ]),
    message: { account: account.address, marketId: 1n, deadline: 1893456000n },
  },
];

const signatures = [];
for (const s of structs) {
  const def = { domain, types: s.types, primaryType: s.primaryType, message: s.message } as never;
  const key = s.key === 'account' ? account : signer;
  const hex = await key.signTypedData(def);
  const bytes = Buffer.from(hex.slice(2), 'hex');
  const v = bytes[64]!;
  const compact = Buffer.from(bytes.subarray(0, 64));
  if (v === 28) compact[32] = compact[32]! | 0x80;
  signatures.push({
    primaryType: s.primaryType,
    ...(s.variant === undefined ? {} : { variant: s.variant }),
    signedBy: s.key,
    message: s.message,
    digest: hashTypedData(def),
    hex65: hex,
    base64Compact64: compact.toString('base64'),
    base64Full65: bytes.toString('base64'),
  });
}

const json = JSON.stringify(
  {
    generatedBy: 'test/vectors/generate.ts (viem only)',
    keys: {
      account: { privateKey: ACCOUNT_KEY, address: account.address },
      signer: { privateKey: SIGNER_KEY, address: signer.address },
    },
    domain: domainWire,
    router,
    selectors,
    orders,
    places,
    actions,
    signatures,
  },
  (_k, v) => (typeof v === 'bigint' ? v.toString() : v),
  2,
);
writeFileSync(new URL('./protocol.json', import.meta.url), `${json}\n`);
console.log('wrote test/vectors/protocol.json');
