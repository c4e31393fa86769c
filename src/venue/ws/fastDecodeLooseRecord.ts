import type { JsonObject } from './fastDecodeFields.js';

/**
 * zod's `z.looseObject`, as the private channels' records use it, for their fast decoders. zod's
 * output is a new object: the declared keys first, in the shape's order, then every other key of
 * the input in the input's order (`for...in`, as zod walks it), except `__proto__`, which zod
 * leaves out. An optional declared key the input lacks stays absent; one the input has stays
 * present even when its value is or decodes to undefined (`client_order_id: ""`). Both matter:
 * the engine's readers see the keys, and a recording's JSON keeps their order.
 */

/** Sets an optional declared field; false when it is present and `decode` refuses it (undefined). */
export function setOptional(
  record: JsonObject,
  raw: JsonObject,
  key: string,
  decode: (value: unknown) => unknown,
): boolean {
  const value = raw[key];
  if (value === undefined) {
    if (key in raw) record[key] = undefined;
    return true;
  }
  const decoded = decode(value);
  if (decoded === undefined) return false;
  record[key] = decoded;
  return true;
}

/** The catch-all: every undeclared key of `raw` onto `record`, its value as it came. */
export function copyUndeclaredKeys(record: JsonObject, raw: JsonObject, declared: ReadonlySet<string>): void {
  for (const key in raw) {
    // Assigning "__proto__" would set the record's prototype; zod skips the key, so do we.
    if (key === '__proto__' || declared.has(key)) continue;
    record[key] = raw[key];
  }
}
