/** A JSON object as parsed: string keys, any values. */
export type JsonObject = Record<string, unknown>;

/** A non-null object that is not an array: what `z.object` accepts, and what a JSON object parses to. */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
