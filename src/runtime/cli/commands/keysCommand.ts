import type { CommandSpec } from '../commandSpec.js';
import { DEFAULT_KEY_DIR } from './flagDefaults.js';

export const keysCommand: CommandSpec = {
  name: 'keys',
  summary: 'create a new account key and signer key (files readable only by you)',
  usage: 'perpbot keys new [--dir DIR]',
  description:
    'Writes DIR/account.key and DIR/signer.key (mode 0600, directory 0700) and prints only the two addresses\n' +
    'and the file paths. Existing key files are never overwritten. Point keys.account_key_file and\n' +
    'keys.signer_key_file of the config (or PERPBOT_KEY_DIR for the bundled profiles) at them.',
  flags: {
    dir: {
      type: 'string',
      short: 'd',
      value: 'DIR',
      description: `directory for the key files (default ${DEFAULT_KEY_DIR})`,
    },
  },
  positionals: ['new'],
  run: async (args, io) => (await import('./runKeys.js')).runKeysNew(args, io),
};
