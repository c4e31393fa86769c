/**
 * The secret values this process holds, so the redactor can recognise them by value: the account
 * and signer keys once loaded, the control token, the JWTs and refresh tokens the venue hands us,
 * and the signatures we made. Redacting by value instead of by shape keeps identifiers readable: a
 * venue order id, a tx hash and a private key are all 32 bytes of hex, and only the key is here.
 *
 * A value is kept in the forms it can be written in: its bytes as lower-case hex (so `0x`, upper
 * case, and the base64 of the same bytes all match) and, when it is not hex, the text itself.
 */

/** Shorter values are refused: redacting every occurrence of a short string would blind the logs. */
const MIN_SECRET_LENGTH = 16;
/** Signatures are remembered per generation of this many; the last two generations are searched. */
const GENERATION_SIZE = 1024;

const HEX = /^(?:0[xX])?([0-9a-fA-F]+)$/;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/** A hex run as the registry keys it: no `0x`, lower case. */
export function hexForm(text: string): string {
  return text.startsWith('0x') || text.startsWith('0X') ? text.slice(2).toLowerCase() : text.toLowerCase();
}

/** The bytes of a base64 or base64url run as lower-case hex (Node's decoder reads both alphabets). */
export function base64BytesForm(text: string): string {
  return Buffer.from(text, 'base64').toString('hex');
}

function formsOf(value: string): string[] {
  if (HEX.test(value)) return [hexForm(value)];
  if (BASE64.test(value)) return [value, base64BytesForm(value)];
  return [value];
}

/**
 * Values registered on the order path (signatures) are stored as they come, with no work, and put
 * in their lookup forms only when the redactor first asks: the hot path pays one array push.
 */
class SecretGeneration {
  private readonly pending: string[] = [];
  private readonly forms = new Set<string>();
  private indexed = 0;

  get size(): number {
    return this.pending.length;
  }

  add(value: string): void {
    this.pending.push(value);
  }

  has(form: string): boolean {
    for (; this.indexed < this.pending.length; this.indexed++) {
      const value = this.pending[this.indexed];
      if (value !== undefined && value.length >= MIN_SECRET_LENGTH) for (const f of formsOf(value)) this.forms.add(f);
    }
    return this.forms.has(form);
  }
}

/**
 * The process's secrets by value: keys and the control token for good, signatures and session
 * tokens in two bounded generations. The redactor asks it whether a long run of hex or base64 is one.
 */
export class SecretRegistry {
  /** Keys and the control token: a handful for the life of the process. */
  private readonly lasting = new Set<string>();
  private readonly lastingHex: string[] = [];
  private readonly lastingText: string[] = [];
  /** Signatures and session tokens: bounded, the oldest generation is forgotten. */
  private current = new SecretGeneration();
  private previous = new SecretGeneration();

  register(value: string): void {
    const trimmed = value.trim();
    if (trimmed.length < MIN_SECRET_LENGTH) return;
    for (const form of formsOf(trimmed)) this.lasting.add(form);
    const isHex = HEX.test(trimmed);
    const list = isHex ? this.lastingHex : this.lastingText;
    const entry = isHex ? hexForm(trimmed) : trimmed;
    if (!list.includes(entry)) list.push(entry);
  }

  registerRecent(value: string): void {
    if (this.current.size >= GENERATION_SIZE) {
      this.previous = this.current;
      this.current = new SecretGeneration();
    }
    this.current.add(value);
  }

  /** `form` from `hexForm` or `base64BytesForm`, or a run of text taken as it is. */
  holds(form: string): boolean {
    return this.lasting.has(form) || this.current.has(form) || this.previous.has(form);
  }

  /** Only the lasting secrets (keys, the control token, webhook URLs): not signatures or session tokens. */
  holdsLasting(form: string): boolean {
    return this.lasting.has(form);
  }

  /** A long hex run (calldata, a concatenation) with a whole key inside it. */
  holdsInside(hex: string): boolean {
    for (const secret of this.lastingHex) if (hex.length > secret.length && hex.includes(secret)) return true;
    return false;
  }

  /** The lasting secrets that are not hex (the control token), found wherever they occur verbatim. */
  textSecrets(): readonly string[] {
    return this.lastingText;
  }
}

/** The one registry of the process. */
export const heldSecrets = new SecretRegistry();

/**
 * Registers a secret for the life of the process: a private key, the control token. Call it where
 * the value enters the process, before anything can log or answer with it.
 */
export function registerSecret(value: string): void {
  heldSecrets.register(value);
}

/**
 * Registers a short-lived secret (a signature we made, a session token): cheap enough for the
 * order path, and bounded, since only the last couple of thousand are remembered.
 */
export function registerRecentSecret(value: string): void {
  heldSecrets.registerRecent(value);
}
