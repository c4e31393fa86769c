import fc from 'fast-check';
import { isDecimalString } from '../../../src/core/decimal.js';
import { base64ByteLength } from '../../../src/venue/schemas/restPrimitives.js';
import {
  deepArray,
  hostileContainer,
  hostileNumber,
  hostileString,
  JsonEntries,
  junkEntries,
  POLLUTING,
  RawJson,
} from '../hostileValues.js';

/**
 * Wire field kinds of the REST bodies and queries, each with generators of values that are
 * certainly invalid for it. "Certainly": candidates are filtered with a predicate that is
 * deliberately generous about what might be valid, so a generated value never passes by luck.
 */
export interface FieldKind {
  /** Any JSON value the field must refuse. */
  readonly invalid: fc.Arbitrary<unknown>;
  /** A query-string value the field must refuse (queries carry only strings). */
  readonly invalidText: fc.Arbitrary<string>;
}

export interface FieldSpec {
  readonly kind: FieldKind;
  readonly valid: unknown;
  readonly optional?: boolean;
}

export type FieldSpecs = Readonly<Record<string, FieldSpec>>;

const notAString = fc.oneof(hostileNumber, hostileContainer);
const notABoolean = fc.oneof(
  hostileString,
  hostileNumber,
  hostileContainer.filter((value) => typeof value !== 'boolean'),
);

function stringKind(mightBeValid: (text: string) => boolean): FieldKind {
  const badText = hostileString.filter((text) => !mightBeValid(text));
  return { invalid: fc.oneof(badText, notAString), invalidText: badText };
}

/**
 * An integer the venue takes as a JSON number or a string (venue-wire.md §4.4): certainly invalid
 * only when it is neither an in-range integer number nor a text of digits in range.
 */
function looseIntegerKind(inRange: (value: bigint) => boolean, signed = false): FieldKind {
  const text = signed ? /^-?\d+$/ : /^\d+$/;
  const badText = hostileString.filter((t) => !(text.test(t) && inRange(BigInt(t))));
  const badNumber = hostileNumber.filter((value) => {
    const number = value instanceof RawJson ? Number(value.text) : value;
    return typeof number === 'number' && !(Number.isInteger(number) && inRange(BigInt(number)));
  });
  return { invalid: fc.oneof(badText, badNumber, hostileContainer), invalidText: badText };
}

export const kinds = {
  looseUint: (bits: number, min = 0) => looseIntegerKind((value) => value >= BigInt(min) && value < 1n << BigInt(bits)),
  looseInt: (bits: number) =>
    looseIntegerKind((value) => value >= -(1n << BigInt(bits - 1)) && value < 1n << BigInt(bits - 1), true),
  looseEnum: (...values: number[]) => looseIntegerKind((value) => values.includes(Number(value))),
  address: stringKind((text) => /^0x[0-9a-fA-F]{40}$/.test(text)),
  nonNegativeDecimal: stringKind((text) => isDecimalString(text) && !text.startsWith('-')),
  idString: stringKind((text) => /^(0|[1-9]\d*)$/.test(text)),
  loginNonce: stringKind((text) => /^(0x|0X)?[0-9a-fA-F]{1,64}$/.test(text)),
  hexSignature: stringKind((text) => /^0x[0-9a-fA-F]{130}$/.test(text)),
  base64Signature: stringKind((text) => [64, 65].includes(base64ByteLength(text) ?? -1)),
  anySignature: stringKind(
    (text) => /^0x[0-9a-fA-F]{130}$/.test(text) || [64, 65].includes(base64ByteLength(text) ?? -1),
  ),
  hexId: stringKind((text) => /^(0x)?[0-9a-fA-F]+$/.test(text)),
  /** A range the venue reads as a JSON number or a digit string. */
  looseRange: (min: bigint, max: bigint) => looseIntegerKind((value) => value >= min && value <= max),
  /** An enumeration by name, or by its number as a JSON number or a digit string (the TP/SL bodies). */
  looseNamedEnum: (...names: string[]): FieldKind => {
    const index = (text: string) => (/^\d{1,2}$/.test(text) ? Number(text) : -1);
    const badText = hostileString.filter((t) => !names.includes(t) && !(index(t) >= 0 && index(t) < names.length));
    const badNumber = hostileNumber.filter((value) => {
      const number = value instanceof RawJson ? Number(value.text) : value;
      return typeof number === 'number' && !(Number.isInteger(number) && number >= 0 && number < names.length);
    });
    return { invalid: fc.oneof(badText, badNumber, hostileContainer), invalidText: badText };
  },
  positiveDecimal: stringKind((text) => isDecimalString(text) && !text.startsWith('-') && /[1-9]/.test(text)),
  /** An opaque id: a non-empty string of at most 256 characters (or a whole number). */
  opaqueId: {
    invalid: fc.oneof(fc.constant(''), hostileContainer, fc.string({ minLength: 257, maxLength: 300 })),
    invalidText: fc.constant(''),
  } as FieldKind,
  /** One of these words (a query's enumeration). */
  word: (...words: string[]) => stringKind((text) => words.includes(text)),
  /** Comma-separated words of the list. */
  words: (...words: string[]) => stringKind((text) => text.split(',').every((item) => words.includes(item.trim()))),
  nonEmptyString: { invalid: fc.oneof(fc.constant(''), notAString), invalidText: fc.constant('') } as FieldKind,
  /** Free text: only a non-string is wrong. */
  anyString: { invalid: notAString, invalidText: fc.constant('') } as FieldKind,
  boolean: { invalid: notABoolean, invalidText: hostileString } as FieldKind,
  object: (fields: FieldSpecs): FieldKind => ({
    invalid: fc.oneof(
      fc.oneof(hostileString, hostileNumber, fc.constantFrom(null, true, false, [], [1]), deepArray),
      fc.constantFrom({}, POLLUTING, new RawJson('{"__proto__":{}}')),
      corruptedObject(fields).map((corrupted) => corrupted.value),
    ),
    invalidText: hostileString,
  }),
};

export interface Corrupted {
  readonly value: JsonEntries;
  /** Names of the fields that were replaced with an invalid value or dropped. */
  readonly corrupted: readonly string[];
}

/**
 * A valid object with one to three fields made invalid (a required field may also be dropped),
 * plus unknown junk keys, `__proto__` and `constructor` among them, which the venue ignores.
 */
export function corruptedObject(fields: FieldSpecs): fc.Arbitrary<Corrupted> {
  const names = Object.keys(fields);
  return fc
    .subarray(names, { minLength: 1, maxLength: Math.min(3, names.length) })
    .chain((chosen) =>
      fc.tuple(
        fc.constant(chosen),
        fc.tuple(...chosen.map((name) => corruption(fields[name]!))),
        junkEntries.map((junk) => junk.filter(([key]) => !(key in fields))),
      ),
    )
    .map(([chosen, replacements, junk]) => {
      const entries: Array<readonly [string, unknown]> = [];
      for (const [name, spec] of Object.entries(fields)) {
        const index = chosen.indexOf(name);
        if (index < 0) {
          entries.push([name, spec.valid]);
          continue;
        }
        const replacement = replacements[index]!;
        if (replacement.drop !== true) entries.push([name, replacement.value]);
      }
      return { value: new JsonEntries([...entries, ...junk]), corrupted: chosen };
    });
}

type Replacement = { readonly drop: true } | { readonly drop?: false; readonly value: unknown };

function corruption(spec: FieldSpec): fc.Arbitrary<Replacement> {
  const replace = spec.kind.invalid.map((value): Replacement => ({ value }));
  return spec.optional === true ? replace : fc.oneof(replace, fc.constant<Replacement>({ drop: true }));
}
