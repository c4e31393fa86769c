import { CONFIG_FLAGS, type CommandSpec } from '../commandSpec.js';

export const revokeSignerCommand: CommandSpec = {
  name: 'revoke-signer',
  summary: 'revoke the configured signer (session) key for the account and confirm status 3',
  usage: 'perpbot revoke-signer [--config FILE]',
  description:
    'Signed by the account key. A revoked signer cannot be registered again by setup: create a new one with keys new.',
  flags: { ...CONFIG_FLAGS },
  run: async (args, io) => (await import('./runRevokeSigner.js')).runRevokeSigner(args, io),
};
