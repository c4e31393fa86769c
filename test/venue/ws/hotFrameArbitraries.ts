import fc from 'fast-check';
import { field } from './fastDecodeArbitraries.js';

/**
 * Oracle and orderbook frames, the two hot channels, as objects to be sent as JSON text. Three
 * modes from one description: `valid` builds only frames the venue could send (every value valid,
 * optional keys present or absent), `plain` the same in the spelling the text scanner reads, and
 * `mutated` replaces values with the departures around each rule (or with any JSON value, or
 * drops the key) now and then, so that both sides of every rule are exercised. The fast
 * decoders' tests hold them to the schemas; the scanner's to the JSON.parse way.
 */

/**
 * One value's valid spellings, the departures around its rule, and (where narrower than valid)
 * the plain spelling the text scanner reads (`scanHotFrame`: integers of at most 15 digits, strings
 * JSON.stringify writes without escapes).
 */
interface Rule<T> {
  readonly valid: fc.Arbitrary<T>;
  readonly departures: fc.Arbitrary<unknown>;
  readonly plain?: fc.Arbitrary<T>;
}

/** `plain`: valid, in the spelling the scanner reads, as the venue and the simulator send it. */
export type FrameMode = 'valid' | 'plain' | 'mutated';

const wei: Rule<string> = {
  valid: fc.oneof(
    { arbitrary: fc.bigInt({ min: 0n, max: 10n ** 24n }).map(String), weight: 60 },
    { arbitrary: fc.bigInt({ min: 0n, max: 10n ** 78n - 1n }).map(String), weight: 20 },
    // Prices as the venue sends them: a few significant digits, then zeros.
    {
      arbitrary: fc
        .tuple(fc.bigInt({ min: 0n, max: 10n ** 9n }), fc.nat({ max: 24 }))
        .map(([n, zeros]) => `${n}${'0'.repeat(zeros)}`),
      weight: 20,
    },
    // WEI_PATTERN allows leading zeros; the decoded decimal drops them.
    { arbitrary: fc.bigInt({ min: 0n, max: 10n ** 20n }).map((n) => `000${n}`), weight: 3 },
  ),
  departures: fc.constantFrom('-1', '1.5', '1e18', ' 1', '0x10', '9'.repeat(79), ''),
};

/** Book levels: decimals below 1e18 (venue-wire.md §3), and the departures around that rule. */
const bookDecimal: Rule<string> = {
  valid: fc.oneof(
    {
      arbitrary: fc
        .tuple(fc.bigInt({ min: 0n, max: 10n ** 18n - 1n }), fc.option(fc.nat({ max: 10 ** 9 }), { nil: undefined }))
        .map(([whole, fraction]) => (fraction === undefined ? `${whole}` : `${whole}.${fraction}`)),
      weight: 60,
    },
    { arbitrary: fc.constantFrom('0', '0.0', '007.50', `${'9'.repeat(18)}.${'9'.repeat(18)}`), weight: 5 },
  ),
  departures: fc.constantFrom(
    '63218500000000000000000',
    '1'.repeat(19),
    `1.${'0'.repeat(19)}`,
    '-1',
    '1.',
    '.5',
    '1e18',
    ' 1',
    '0x10',
  ),
};

const marketIdNumber = fc.oneof(fc.integer({ min: 0, max: 65_535 }), fc.constantFrom(0, 1, 65_535));
const marketIdRule: Rule<number | string> = {
  valid: fc.oneof({ arbitrary: marketIdNumber, weight: 3 }, { arbitrary: marketIdNumber.map(String), weight: 1 }),
  departures: fc.constantFrom(-1, 65_536, 1.5, '01', '65536', '', null),
};
const marketKey: Rule<string> = {
  valid: marketIdNumber.map(String),
  departures: fc.constantFrom('01', 'btc', '-1', '__proto__', '1.0', '70000'),
};
const nanos: Rule<string> = {
  valid: fc.bigInt({ min: 0n, max: 10n ** 30n - 1n }).map(String),
  departures: fc.constantFrom('', '1.5', '-1', '1'.repeat(31)),
};
const nonNegInt: Rule<number> = {
  valid: fc.oneof(fc.nat(), fc.constantFrom(0, 999_999_999_999_999, Number.MAX_SAFE_INTEGER)),
  departures: fc.constantFrom(-1, 1.5, Number.MAX_SAFE_INTEGER + 2, '1'),
  plain: fc.oneof(fc.nat(), fc.constantFrom(0, 999_999_999_999_999)),
};
const checksum: Rule<number> = {
  valid: fc.oneof(fc.nat({ max: 4_294_967_295 }), fc.constant(4_294_967_295)),
  departures: fc.constantFrom(4_294_967_296, -1, 2.5, '1'),
};
const timestamp: Rule<number> = {
  valid: fc.oneof(
    { arbitrary: fc.nat(), weight: 5 },
    { arbitrary: fc.double({ min: 0, max: 2e9, noNaN: true }), weight: 1 },
  ),
  departures: fc.constantFrom(-1, '1', null),
  plain: fc.nat(),
};
const hexHash = fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), maxLength: 64 }).map((h) => `0x${h}`);
const txHash: Rule<string> = {
  // Any string is valid; JSON.stringify escapes the quote, the backslash, controls and lone surrogates.
  valid: fc.oneof(
    { arbitrary: hexHash, weight: 5 },
    { arbitrary: fc.string(), weight: 1 },
    { arbitrary: fc.constantFrom('a\\b', 'a"b', 'line\nbreak', '\u0001', '\ud800', '\u007f', ''), weight: 1 },
  ),
  departures: fc.constantFrom(1, null),
  plain: fc.oneof(hexHash, fc.string({ unit: fc.constantFrom(...'0xX é€😀'), maxLength: 8 })),
};
const method: Rule<string> = { valid: fc.constantFrom('snapshot', 'update'), departures: fc.constantFrom(1, null, '') };

/** How one mode picks a value and writes a key. */
interface Picker {
  value<T>(rule: Rule<T>): fc.Arbitrary<unknown>;
  /** A key's value: in `mutated` mode sometimes any JSON value, sometimes the key left out. */
  key(arbitrary: fc.Arbitrary<unknown>): fc.Arbitrary<unknown>;
}

const PICKERS: Record<FrameMode, Picker> = {
  valid: { value: (rule) => rule.valid, key: (arbitrary) => arbitrary },
  plain: { value: (rule) => rule.plain ?? rule.valid, key: (arbitrary) => arbitrary },
  mutated: {
    value: (rule) => fc.oneof({ arbitrary: rule.valid, weight: 30 }, { arbitrary: rule.departures, weight: 1 }),
    key: field,
  },
};

export function oracleFrame(mode: FrameMode): fc.Arbitrary<Record<string, unknown>> {
  const { value, key } = PICKERS[mode];
  const price = fc.record({ index_price: key(value(wei)), mark_price: key(value(wei)) }, { requiredKeys: [] });
  return fc.record(
    {
      channel: key(fc.constant('oracle')),
      type: key(fc.constant('update')),
      market_id: key(fc.constant(null)),
      data: key(
        fc.record({
          prices: key(fc.dictionary(value(marketKey) as fc.Arbitrary<string>, key(price), { maxKeys: 5 })),
          timestamp: key(value(timestamp)),
        }),
      ),
      tx_hash: key(value(txHash)),
      block_number: key(value(nonNegInt)),
      log_index: key(value(nonNegInt)),
      worker_timestamp: key(value(nanos)),
    },
    mode !== 'mutated'
      ? { requiredKeys: ['channel', 'type', 'data', 'tx_hash', 'block_number', 'log_index', 'worker_timestamp'] }
      : {},
  );
}

export function orderbookFrame(mode: FrameMode): fc.Arbitrary<Record<string, unknown>> {
  const { value, key } = PICKERS[mode];
  const level = fc.record({
    price: key(value(bookDecimal)),
    quantity: key(value(bookDecimal)),
    order_count: key(value(nonNegInt)),
  });
  const levels = key(fc.array(key(level), { maxLength: 6 }));
  // Where the market id is: both (agreeing, the envelope's perhaps as a string) or one; in
  // `mutated` mode the envelope's is now and then any market id value, mostly not data's.
  const ids = fc
    .tuple(
      fc.integer({ min: 0, max: 65_535 }),
      fc.constantFrom('both', 'envelope', 'data'),
      fc.boolean(),
      mode !== 'mutated'
        ? fc.constant(undefined)
        : fc.oneof({ arbitrary: fc.constant(undefined), weight: 4 }, { arbitrary: value(marketIdRule), weight: 1 }),
    )
    .map(([id, where, asString, other]) => ({
      envelope: where === 'data' ? undefined : (other ?? (asString ? String(id) : id)),
      data: where === 'envelope' ? undefined : id,
    }));
  return ids.chain((id) =>
    fc.record(
      {
        method: key(value(method)),
        channel: key(fc.constant('orderbook')),
        type: key(fc.constantFrom('snapshot', 'update')),
        market_id: key(fc.constant(id.envelope)),
        data: key(
          fc.record(
            { market_id: key(fc.constant(id.data)), bids: levels, asks: levels, checksum: key(value(checksum)) },
            { requiredKeys: mode === 'mutated' ? ['bids', 'asks'] : ['bids', 'asks', 'market_id'] },
          ),
        ),
        level_count: key(value(nonNegInt)),
        block_number: key(value(nonNegInt)),
        log_index: key(value(nonNegInt)),
        tx_hash: key(value(txHash)),
        worker_timestamp: key(value(nanos)),
        checksum: key(value(checksum)),
      },
      mode !== 'mutated' ? { requiredKeys: ['channel', 'type', 'market_id', 'data', 'worker_timestamp'] } : {},
    ),
  );
}
