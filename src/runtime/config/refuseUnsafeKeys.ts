import { ConfigError, formatConfigPath } from './configError.js';

/** Keys that name an object's prototype machinery rather than data. */
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Refuses a YAML mapping key such as `__proto__` anywhere in the document, before anything copies
 * the document: assigned to a plain object it sets the prototype instead of a field, so its value
 * (a `${SECRET}` substitution included) would slip past the checks that walk the fields.
 */
export function refuseUnsafeKeys(value: unknown, path: readonly (string | number)[] = []): void {
  if (Array.isArray(value)) {
    value.forEach((item, index) => refuseUnsafeKeys(item, [...path, index]));
    return;
  }
  if (value === null || typeof value !== 'object') return;
  for (const key of Object.keys(value)) {
    if (UNSAFE_KEYS.has(key))
      throw ConfigError.at(
        formatConfigPath(path),
        `the key ${JSON.stringify(key)} is not allowed (it names JavaScript's object machinery, not a setting)`,
      );
    refuseUnsafeKeys((value as Record<string, unknown>)[key], [...path, key]);
  }
}
