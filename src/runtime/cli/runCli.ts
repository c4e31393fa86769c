import { closestName } from '../../core/closestName.js';
import type { CliIo } from './cliIo.js';
import { CliUsageError } from './cliUsageError.js';
import type { CommandSpec } from './commandSpec.js';
import { COMMANDS } from './commands/index.js';
import { formatCliError } from './formatCliError.js';
import { formatCommandHelp, formatMainHelp } from './formatHelp.js';
import { booleanFlag, parseCommandArgs } from './parseCommandArgs.js';

/** Exit codes: 0 done, 1 the command failed, 2 the command line is wrong, 130 interrupted. */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;
export const EXIT_INTERRUPTED = 130;

/**
 * `perpbot <command> [options]` without a process: finds the command, parses its flags, prints
 * help, runs it, and turns any failure into one line on stderr (the stack only with --verbose).
 * Returns the exit code.
 */
export async function runCli(
  argv: readonly string[],
  io: CliIo,
  commands: readonly CommandSpec[] = COMMANDS,
): Promise<number> {
  const verbose = argv.includes('--verbose');
  const [name, ...rest] = argv[0] === '--verbose' ? argv.slice(1) : argv;
  try {
    if (name === undefined) {
      io.stdout.write(formatMainHelp(commands));
      return EXIT_USAGE;
    }
    if (name === '--help' || name === '-h' || name === 'help') {
      io.stdout.write(formatMainHelp(commands));
      return EXIT_OK;
    }
    const command = commands.find((c) => c.name === name);
    if (command === undefined) {
      const suggestion = closestName(
        name,
        commands.map((c) => c.name),
      );
      throw new CliUsageError(`unknown command ${JSON.stringify(name)}`, [
        ...(suggestion === undefined ? [] : [`did you mean ${suggestion}?`]),
        `commands: ${commands.map((c) => c.name).join(', ')}; run perpbot --help`,
      ]);
    }
    if (command.passThrough === true) return await command.run({ flags: {}, positionals: [] }, io, rest);
    const args = parseCommandArgs(command, rest);
    if (booleanFlag(args, 'help')) {
      io.stdout.write(formatCommandHelp(command));
      return EXIT_OK;
    }
    return await command.run(args, io, rest);
  } catch (error) {
    if (io.shutdown.aborted && !verbose) {
      io.stderr.write('perpbot: interrupted\n');
      return EXIT_INTERRUPTED;
    }
    io.stderr.write(formatCliError(error, verbose));
    return error instanceof CliUsageError ? EXIT_USAGE : EXIT_FAILURE;
  }
}
