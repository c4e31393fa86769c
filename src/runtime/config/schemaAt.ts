import { z } from 'zod';
import { unwrapSchema as unwrap } from '../../core/zodUnwrap.js';

/**
 * Reads a zod schema to word error lines the way a user thinks of a field ("an integer from 1
 * to 65535") and to list the keys an object allows. Only the schema kinds the config uses are
 * understood; anything else yields undefined and the caller falls back to zod's own wording.
 */

/** The schema that validates the value at `path`, looking through optional/default/preprocess wrappers. */
export function schemaAt(root: z.core.$ZodType, path: readonly PropertyKey[]): z.core.$ZodType | undefined {
  let node: z.core.$ZodType | undefined = unwrap(root);
  for (const segment of path) {
    if (node instanceof z.ZodObject && typeof segment === 'string') node = fieldOf(node, segment);
    else if (node instanceof z.ZodArray && typeof segment === 'number') node = node.element;
    else if (node instanceof z.ZodRecord) node = node.valueType;
    else return undefined;
    if (node === undefined) return undefined;
    node = unwrap(node);
  }
  return node;
}

/** An object schema's field (undefined: not one of its keys). */
function fieldOf(object: z.ZodObject, key: string): z.core.$ZodType | undefined {
  const shape: Readonly<Record<string, z.core.$ZodType | undefined>> = object.shape;
  return shape[key];
}

interface Bound {
  readonly value: number;
  readonly inclusive: boolean;
}

/** What a number schema's checks say: an integer or not, and its lower and upper bounds. */
interface NumberRange {
  readonly integer: boolean;
  readonly min: Bound | undefined;
  readonly max: Bound | undefined;
}

/** "a positive number", "an integer from 1 to 65535", "a non-negative integer"; undefined for non-numbers. */
export function describeNumber(schema: z.core.$ZodType | undefined): string | undefined {
  if (!(schema instanceof z.ZodNumber)) return undefined;
  const { integer, min, max } = rangeOf(schema);
  const noun = integer ? 'integer' : 'number';
  if (min !== undefined && max !== undefined && min.inclusive && max.inclusive)
    return `an ${noun} from ${min.value} to ${max.value}`.replace(/^an number/, 'a number');
  const adjective = min === undefined ? '' : adjectiveOf(min, integer);
  const parts: string[] = [];
  if (min !== undefined && adjective === '') parts.push(`${min.inclusive ? '>=' : '>'} ${min.value}`);
  if (max !== undefined) parts.push(`${max.inclusive ? '<=' : '<'} ${max.value}`);
  const phrase = `${adjective}${noun}${parts.length === 0 ? '' : ` ${parts.join(' and ')}`}`;
  return /^[aeiou]/.test(phrase) ? `an ${phrase}` : `a ${phrase}`;
}

function rangeOf(schema: z.ZodNumber): NumberRange {
  let integer = false;
  let min: Bound | undefined;
  let max: Bound | undefined;
  for (const check of schema._zod.def.checks ?? []) {
    const def = check._zod.def;
    if (def.check === 'number_format') integer = true;
    const bound =
      'value' in def && 'inclusive' in def
        ? { value: Number(def.value), inclusive: def.inclusive === true }
        : undefined;
    if (bound === undefined) continue;
    if (def.check === 'greater_than') min = bound;
    else if (def.check === 'less_than' && bound.value < Number.MAX_SAFE_INTEGER) max = bound;
  }
  return { integer, min, max };
}

/** A lower bound said as a word ("positive ", "non-negative "), or '' when it has to be said as `>= n`. */
function adjectiveOf(min: Bound, integer: boolean): string {
  if (min.value === 0) return min.inclusive ? 'non-negative ' : 'positive ';
  if (integer && min.value === 1 && min.inclusive) return 'positive ';
  return '';
}

/** The keys an object schema allows, or undefined when `schema` is not an object. */
export function allowedKeys(schema: z.core.$ZodType | undefined): string[] | undefined {
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : undefined;
}
