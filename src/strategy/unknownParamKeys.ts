import { z } from 'zod';
import { closestName } from '../core/closestName.js';
import { isJsonObject } from '../core/jsonObject.js';
import { unwrapSchema } from '../core/zodUnwrap.js';

/** A key of a strategy's params that its schema does not know. */
export interface UnknownParamKey {
  /** Path from the params' root to the key, the key last. */
  readonly path: readonly (string | number)[];
  /** The nearest allowed key, when it looks like a typo of one. */
  readonly suggestion?: string;
  readonly allowed: readonly string[];
}

/**
 * The keys of `input` that `schema` would drop silently: zod's plain `z.object` strips unknown
 * keys, so `spred_bps: 5` ran with the default spread unless the author wrote `.strict()`. The
 * framework checks every object of the params (nested and in arrays) as the config's own keys
 * are checked; an object that allows extra keys (`z.looseObject`, `.catchall()`) is left alone,
 * and a strict one is zod's to refuse.
 */
export function unknownParamKeys(
  schema: z.core.$ZodType,
  input: unknown,
  path: readonly (string | number)[] = [],
): UnknownParamKey[] {
  const node = unwrapSchema(schema);
  if (node instanceof z.ZodArray && Array.isArray(input))
    return input.flatMap((item: unknown, i) => unknownParamKeys(node.element, item, [...path, i]));
  if (!(node instanceof z.ZodObject) || !isJsonObject(input)) return [];
  const shape: Readonly<Record<string, z.core.$ZodType | undefined>> = node.shape;
  const allowed = Object.keys(shape);
  const found: UnknownParamKey[] = [];
  for (const [key, value] of Object.entries(input)) {
    const field = shape[key];
    if (field !== undefined) found.push(...unknownParamKeys(field, value, [...path, key]));
    else if (node._zod.def.catchall === undefined) found.push(unknownKey([...path, key], key, allowed));
  }
  return found;
}

function unknownKey(path: readonly (string | number)[], key: string, allowed: readonly string[]): UnknownParamKey {
  const suggestion = closestName(key, allowed);
  return suggestion === undefined ? { path, allowed } : { path, allowed, suggestion };
}

/** "unknown key "spred_bps" (did you mean "spread_bps"?)", or the keys allowed there. */
export function describeUnknownKey(unknown: UnknownParamKey): string {
  const key = String(unknown.path.at(-1));
  const help =
    unknown.suggestion !== undefined
      ? `did you mean "${unknown.suggestion}"?`
      : unknown.allowed.length > 0
        ? `allowed here: ${unknown.allowed.join(', ')}`
        : 'this object takes no keys';
  return `unknown key ${JSON.stringify(key)} (${help})`;
}
