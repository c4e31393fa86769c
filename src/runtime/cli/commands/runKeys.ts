import { resolve } from 'node:path';
import { createKeyFiles } from '../../account/keys/createKeyFiles.js';
import { CliUsageError } from '../cliUsageError.js';
import { stringFlag } from '../parseCommandArgs.js';
import { DEFAULT_KEY_DIR } from './flagDefaults.js';
import type { CliIo } from '../cliIo.js';
import type { ParsedArgs } from '../commandSpec.js';

/** `perpbot keys new`: writes the two key files and prints only addresses and paths. */
export async function runKeysNew(args: ParsedArgs, io: CliIo): Promise<number> {
  if (args.positionals[0] !== 'new') {
    throw new CliUsageError(`perpbot keys: unknown subcommand ${JSON.stringify(args.positionals[0])}`, [
      'usage: perpbot keys new [--dir DIR]',
    ]);
  }
  const dir = resolve(io.cwd, stringFlag(args, 'dir') ?? DEFAULT_KEY_DIR);
  const created = await createKeyFiles(dir);
  io.stdout.write(
    [
      `account  ${created.account}  ${created.accountKeyFile}`,
      `signer   ${created.signer}  ${created.signerKeyFile}`,
      'Keep these files secret and backed up; the account key controls the funds.',
      '',
    ].join('\n'),
  );
  return 0;
}
