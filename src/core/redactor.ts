import { replaceBase64Runs, replaceCredentialMembers, replaceHexRuns, replaceJwts } from './redactionScan.js';
import { isSecretFieldName } from './secretFieldNames.js';
import { base64BytesForm, heldSecrets, hexForm } from './secretRegistry.js';

/**
 * The project's one redactor, for everything the process writes or answers: log lines, error
 * messages and bodies, control-server answers, alert webhooks, CLI output. It redacts by field
 * name (`signature`, `private_key`, `authorization`, ...) and by value: a long hex or base64 run
 * is redacted only when it is a secret this process holds (see secretRegistry.ts), so order ids,
 * tx hashes and addresses of the same length stay readable. JWTs and bearer credentials are the
 * exception: never an identifier, they are redacted on sight, registered or not.
 */
export const REDACTED = '[redacted]';

// Plain greedy loops over character classes: V8 runs them without a backtracking stack. The
// searches that needed look-around or counts (hex and base64 runs, JWTs, credential members) are
// hand-written scans (redactionScan.ts): as regexps they overflowed the stack on a 5.6 MB run.
const BEARER = /(Bearer\s+)[A-Za-z0-9._~+/-]+=*/gi;
const PURE_HEX = /^(?:0[xX])?[0-9a-fA-F]+$/;
// No registered secret is shorter (secretRegistry's minimum), and a JWT is longer.
const SHORTEST_SECRET = 16;

/** `text` with every held secret, JWT and bearer credential in it replaced by `[redacted]`. */
export function redactText(text: string): string {
  if (text.length < SHORTEST_SECRET) return text;
  let out = replaceJwts(text.replace(BEARER, `$1${REDACTED}`), REDACTED);
  for (const secret of heldSecrets.textSecrets()) if (out.includes(secret)) out = out.replaceAll(secret, REDACTED);
  return replaceBase64Runs(replaceHexRuns(out, redactHexRun), redactBase64Run);
}

/**
 * `text` as a recording may hold it (the flight recorder's rule): the lasting secrets (private
 * keys, the control token, webhook URLs), JWTs, bearer credentials and credential-named JSON
 * members are replaced; signatures, order ids, tx hashes and addresses are kept, since a replay
 * and an incident review need them and a signature cannot sign anything else. (`redactText`, for
 * logs, also hides the signatures this process made.)
 */
export function redactRecordingText(text: string): string {
  if (text.length < SHORTEST_SECRET) return text;
  // Members of a JSON text whose names say they hold a credential (`access_token`, `refresh_token`,
  // `jwt`, `private_key`...), signatures excepted: `"name": "value"` with the value replaced.
  let out = replaceCredentialMembers(
    replaceJwts(text.replace(BEARER, `$1${REDACTED}`), REDACTED),
    isSecretFieldName,
    REDACTED,
  );
  for (const secret of heldSecrets.textSecrets()) if (out.includes(secret)) out = out.replaceAll(secret, REDACTED);
  return replaceBase64Runs(replaceHexRuns(out, redactLastingHexRun), redactLastingBase64Run);
}

function redactLastingHexRun(run: string): string {
  const form = hexForm(run);
  return heldSecrets.holdsLasting(form) || heldSecrets.holdsInside(form) ? REDACTED : run;
}

function redactLastingBase64Run(run: string): string {
  if (PURE_HEX.test(run)) return run;
  return heldSecrets.holdsLasting(run) || heldSecrets.holdsLasting(base64BytesForm(run)) ? REDACTED : run;
}

function redactHexRun(run: string): string {
  const form = hexForm(run);
  return heldSecrets.holds(form) || heldSecrets.holdsInside(form) ? REDACTED : run;
}

function redactBase64Run(run: string): string {
  // Hex runs were judged by redactHexRun already.
  if (PURE_HEX.test(run)) return run;
  return heldSecrets.holds(run) || heldSecrets.holds(base64BytesForm(run)) ? REDACTED : run;
}

/**
 * `JSON.stringify(value)` for an answer the process gives (control server, alert webhook): the
 * same JSON, `toJSON` included, with secret-named members and held secret values redacted.
 */
export function redactJson(value: unknown): string {
  return JSON.stringify(value, redactJsonMember);
}

function redactJsonMember(key: string, value: unknown): unknown {
  if (isSecretFieldName(key) && isPresent(value)) return REDACTED;
  return typeof value === 'string' ? redactText(value) : value;
}

const MAX_DEPTH = 12;

/**
 * A deep copy of `value` fit to be written out: fields named like secrets are replaced, every
 * string goes through `redactText`, objects with `toJSON` are taken as JSON would take them, and
 * errors become plain objects (type, message, stack, own fields, cause) so a nested error keeps
 * its text instead of serialising as `{}`. The input is not changed.
 */
export function redactValue(value: unknown): unknown {
  return new ValueRedaction().copy(value, 0);
}

/** One deep copy; `ancestors` turns a cycle into `[circular]` while a shared object is copied twice. */
class ValueRedaction {
  private readonly ancestors = new WeakSet<object>();

  copy(value: unknown, depth: number): unknown {
    if (typeof value === 'string') return redactText(value);
    if (value === null || typeof value !== 'object') return value;
    if (this.ancestors.has(value)) return '[circular]';
    // As JSON serialisation would (Date, LoadedKey); errors keep their stack and cause instead.
    if (!(value instanceof Error) && hasToJson(value)) return this.copy(value.toJSON(), depth + 1);
    if (depth >= MAX_DEPTH) return '[too deep]';
    this.ancestors.add(value);
    try {
      return Array.isArray(value) ? this.copyItems(value, depth) : this.copyFields(value, depth);
    } finally {
      this.ancestors.delete(value);
    }
  }

  private copyItems(items: readonly unknown[], depth: number): unknown[] {
    const out: unknown[] = [];
    for (const item of items) out.push(this.copy(item, depth + 1));
    return out;
  }

  private copyFields(value: object, depth: number): Record<string, unknown> {
    const source = value instanceof Error ? errorFields(value) : value;
    const out: Record<string, unknown> = {};
    for (const [name, item] of Object.entries(source)) {
      out[name] = isSecretFieldName(name) && isPresent(item) ? REDACTED : this.copy(item, depth + 1);
    }
    return out;
  }
}

function errorFields(error: Error): Record<string, unknown> {
  const fields: Record<string, unknown> = { type: error.name, message: error.message, stack: error.stack };
  // Own enumerable fields (code, details, hints of a PerpbotError) and the native cause chain.
  for (const [name, item] of Object.entries(error)) if (!(name in fields)) fields[name] = item;
  if (error.cause !== undefined) fields['cause'] = error.cause;
  return fields;
}

function isPresent(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '';
}

function hasToJson(value: object): value is { toJSON: () => unknown } {
  return 'toJSON' in value && typeof value.toJSON === 'function';
}
