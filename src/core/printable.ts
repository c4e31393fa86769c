/**
 * `text` fit for a terminal: every control character (C0 and DEL, and C1, which some terminals
 * take as escapes too) shown as `\xNN` instead of sent raw, so a recording, a venue or any file
 * perpbot quotes from cannot move the cursor, recolour or retitle the operator's terminal. With
 * `keepNewlines`, `\n` stays (a multi-line message).
 */
export function printable(text: string, keepNewlines = false): string {
  let out: string | undefined;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    const control = code < 0x20 || (code >= 0x7f && code <= 0x9f);
    if (!control || (keepNewlines && code === 0x0a)) {
      if (out !== undefined) out += text[at];
      continue;
    }
    out ??= text.slice(0, at);
    out += `\\x${code.toString(16).padStart(2, '0')}`;
  }
  return out ?? text;
}
