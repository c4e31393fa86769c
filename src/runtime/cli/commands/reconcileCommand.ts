import { ACCOUNT_FLAG } from '../accountFlagSpec.js';
import { CONFIG_FLAGS, type CommandSpec } from '../commandSpec.js';

export const reconcileCommand: CommandSpec = {
  name: 'reconcile',
  summary: 'compare the journal with the venue and print the differences',
  usage: 'perpbot reconcile [--config FILE] [--apply] [--json] [--account ADDRESS]',
  description:
    'Reads open orders, positions, the cross-margin balance and the nonce state from the venue and compares them with the journal ' +
    '(the balance against the last snapshot journaled). ' +
    'Without --apply nothing is written (safe while a bot runs); with --apply the resolutions are journaled, as a bot does at start, ' +
    'and the journal must not be in use by a running bot. ' +
    'Only reads are sent to the venue, so no key is needed with --account.',
  flags: {
    ...CONFIG_FLAGS,
    apply: { type: 'boolean', description: 'journal the resolutions (only while no bot uses this journal)' },
    json: { type: 'boolean', description: 'print the report as JSON' },
    account: ACCOUNT_FLAG,
  },
  run: async (args, io) => (await import('./runReconcile.js')).runReconcile(args, io),
};
