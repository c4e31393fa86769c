import { isPerpbotError } from '../core/perpbotError.js';
import { parseSimCliArgs, SIM_CLI_HELP } from './simCliArgs.js';
import { startSim } from './startSim.js';

/** `npm run sim`: the simulator as a standalone local venue, like a local chain for wallets. */
async function main(): Promise<number> {
  let command;
  try {
    command = parseSimCliArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(
      `${isPerpbotError(error) ? error.describe() : String((error as Error).message ?? error)}\n\n${SIM_CLI_HELP}`,
    );
    return 2;
  }
  if (command.help) {
    process.stdout.write(SIM_CLI_HELP);
    return 0;
  }
  // Listening before the address is printed: whoever reads it may signal at once, and a SIGTERM
  // that came before the listener would kill the process (exit 143) instead of closing the simulator.
  const stopRequested = new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  const sim = await startSim({
    ...command.options,
    onError: (error) =>
      process.stderr.write(`sim: internal error: ${error instanceof Error ? error.message : String(error)}\n`),
  });
  process.stdout.write(`perpbot-sim REST ${sim.restUrl} WS ${sim.wsUrl}\n`);
  await stopRequested;
  await sim.close();
  process.stdout.write('perpbot-sim stopped\n');
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`perpbot-sim failed: ${isPerpbotError(error) ? error.describe() : String(error)}\n`);
    process.exit(1);
  },
);
