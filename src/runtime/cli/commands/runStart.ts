import { isPerpbotError } from '../../../core/perpbotError.js';
import { DEFAULT_CONTROL_TOKEN_ENV, type Config } from '../../config/configSchema.js';
import { basename, extname } from 'node:path';
import { formatCliError } from '../formatCliError.js';
import { configPathOf, createCliLogger, loadCliConfig, loadCliKeys, logLevelFlag } from '../cliContext.js';
import { booleanFlag, integerFlag } from '../parseCommandArgs.js';
import { usesTerminal } from '../../operations/terminal/usesTerminal.js';
import { startBot } from '../startBot.js';
import type { CliIo } from '../cliIo.js';
import type { ParsedArgs } from '../commandSpec.js';

/** `perpbot start`: config overrides from the flags, then startBot until the shutdown signal. */
export async function runStart(args: ParsedArgs, io: CliIo): Promise<number> {
  const level = logLevelFlag(args);
  const loaded = await loadCliConfig(args, io);
  const controlPort = integerFlag(args, 'control-port', 0, 65_535);
  const dryRun: Config = booleanFlag(args, 'dry-run')
    ? { ...loaded, engine: { ...loaded.engine, dry_run: true } }
    : loaded;
  // --control-port turns the control server on (or moves it), keeping the rest of control:.
  const config: Config =
    controlPort === undefined
      ? dryRun
      : {
          ...dryRun,
          control: {
            host: '127.0.0.1',
            token_env: DEFAULT_CONTROL_TOKEN_ENV,
            allowed_hosts: [],
            ...dryRun.control,
            port: controlPort,
          },
        };
  const logger = createCliLogger(config, io.stdout, level);
  try {
    await startBot({
      config,
      logger,
      clock: io.clock,
      cwd: io.cwd,
      signal: io.shutdown,
      env: io.env,
      configName: configNameOf(configPathOf(args, io)),
      ...(usesTerminal(config.logging.pretty, io.stdout) ? { statusLine: io.stdout } : {}),
      loadKeys: async () => {
        const { keys } = await loadCliKeys(config, io);
        return { account: keys.account, signer: keys.signer };
      },
    });
  } catch (error) {
    // Records of the run that never reached the journal: a failure however the run was stopped.
    if (isPerpbotError(error) && error.code === 'JOURNAL_INCOMPLETE') {
      io.stderr.write(formatCliError(error, false));
      return 1;
    }
    // Interrupted before trading began (during setup, say): still a requested, clean stop.
    if (!io.shutdown.aborted) throw error;
    logger.info({}, 'stopped before trading started');
  }
  logger.info({}, 'stopped');
  return 0;
}

/** `desk-a` for /etc/perpbot/desk-a.yaml: the name a fleet's dashboards and alerts show. */
function configNameOf(path: string): string {
  return basename(path, extname(path));
}
