/**
 * The `--account ADDRESS` flag of the read-only commands: they need an address, never a key. Apart
 * from accountFlag.ts (which reads keys) so that a command's spec, loaded for every command and
 * for --help, loads nothing of the key handling.
 */
export const ACCOUNT_FLAG = {
  type: 'string',
  value: 'ADDRESS',
  description: 'look at this account instead of the configured account key (needs no key)',
} as const;
