/**
 * Whether the bot talks to a person at a terminal: `logging.pretty: auto` on a TTY, or `true`.
 * Then log lines are compact and a status line comes every few seconds; otherwise JSON lines only.
 */
export function usesTerminal(pretty: 'auto' | boolean, destination: object): boolean {
  if (pretty !== 'auto') return pretty;
  return 'isTTY' in destination && destination.isTTY === true;
}
