/**
 * A value as its JSON text would carry it, without the text: a caller and a callee in one process
 * (the REST client and the in-process simulator) hand each other the value `JSON.parse` of
 * `JSON.stringify(value)` gives, made by one walk instead of a serialisation and a parse. A fresh
 * copy, so neither side holds the other's objects.
 */
export interface JsonCopy {
  /** Equal to `JSON.parse(JSON.stringify(value))`, down to the key order. */
  readonly value: unknown;
  /** At least the UTF-8 byte length of `JSON.stringify(value)`: what a byte limit is judged by. */
  readonly maxBytes: number;
}

/**
 * `value` copied as JSON would (keys whose value is undefined, a function or a symbol dropped, in
 * arrays null; -0 as 0; NaN and the infinities as null; symbol keys dropped), or undefined when
 * the walk leaves the text's way to the caller: a value the text cannot carry (a bigint, a
 * top-level undefined, a cycle or a nesting deeper than `MAX_DEPTH`), or one whose text is made
 * by code (`toJSON`, an object that is not a plain object or array: a Date, a boxed primitive),
 * or a `__proto__` key (an own key for `JSON.parse`, the prototype for an assignment).
 */
export function copyAsJson(value: unknown): JsonCopy | undefined {
  const walk = new JsonWalk();
  const copied = walk.copy(value, 0);
  return copied === SKIPPED || copied === REFUSED ? undefined : { value: copied, maxBytes: walk.bytes };
}

/** Deeper than this, the caller's own `JSON.stringify` decides (and throws on a cycle). */
const MAX_DEPTH = 64;
/** The longest text of a finite number (`-1.2345678901234567e-308`), rounded up. */
const NUMBER_BYTES = 25;
/** Each UTF-16 unit is at most 3 UTF-8 bytes, or 6 as a `\uXXXX` escape. */
const STRING_UNIT_BYTES = 6;

/** A value JSON leaves out: dropped from an object, null in an array. */
const SKIPPED = Symbol('skipped');
/** A value the walk leaves to the text. */
const REFUSED = Symbol('refused');

class JsonWalk {
  bytes = 0;

  copy(value: unknown, depth: number): unknown {
    switch (typeof value) {
      case 'string':
        this.bytes += 2 + STRING_UNIT_BYTES * value.length;
        return value;
      case 'number':
        this.bytes += NUMBER_BYTES;
        // JSON writes -0 as 0 and a non-finite number as null.
        return Number.isFinite(value) ? (value === 0 ? 0 : value) : null;
      case 'boolean':
        this.bytes += 5;
        return value;
      case 'undefined':
      case 'function':
      case 'symbol':
        return SKIPPED;
      case 'bigint':
        return REFUSED;
      case 'object':
        if (value === null) {
          this.bytes += 4;
          return null;
        }
        if (depth >= MAX_DEPTH) return REFUSED;
        return Array.isArray(value) ? this.array(value, depth) : this.object(value, depth);
    }
  }

  private array(value: readonly unknown[], depth: number): unknown {
    if (Object.getPrototypeOf(value) !== Array.prototype) return REFUSED;
    this.bytes += 2 + value.length;
    const out: unknown[] = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) {
      const item = this.copy(value[i], depth + 1);
      if (item === REFUSED) return REFUSED;
      if (item === SKIPPED) {
        this.bytes += 4;
        out[i] = null;
      } else out[i] = item;
    }
    return out;
  }

  private object(value: object, depth: number): unknown {
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return REFUSED;
    const record = value as Record<string, unknown>;
    if (typeof record['toJSON'] === 'function') return REFUSED;
    this.bytes += 2;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(record)) {
      if (key === '__proto__') return REFUSED;
      const item = this.copy(record[key], depth + 1);
      if (item === REFUSED) return REFUSED;
      if (item === SKIPPED) continue;
      this.bytes += 4 + STRING_UNIT_BYTES * key.length;
      out[key] = item;
    }
    return out;
  }
}
