import { resolve } from 'node:path';
import { PerpbotError } from '../../../core/perpbotError.js';
import { controlFileFor, liveControlRecord } from '../../operations/control/controlFile.js';
import { loadControlToken } from '../../operations/control/controlToken.js';
import type { KillSwitchAction } from '../../operations/control/botControl.js';
import { requestKillSwitch } from '../../operations/control/killSwitchRequest.js';
import { DEFAULT_CONTROL_TOKEN_ENV, type Config } from '../../config/configSchema.js';
import { loadCliConfig } from '../cliContext.js';
import type { CliIo } from '../cliIo.js';
import { CliUsageError } from '../cliUsageError.js';
import type { ParsedArgs } from '../commandSpec.js';
import { booleanFlag, stringFlag } from '../parseCommandArgs.js';

/** `perpbot kill-switch trip|reset`: the running bot's kill switch, through its control server. */
export async function runKillSwitch(args: ParsedArgs, io: CliIo): Promise<number> {
  const action = actionOf(args.positionals[0]);
  // A trip only stops trading: it never waits for mainnet's acknowledgement (a reset does).
  const config = await loadCliConfig(
    action === 'trip' ? { ...args, flags: { ...args.flags, 'i-understand-mainnet': true } } : args,
    io,
  );
  const url = stringFlag(args, 'url') ?? recordedUrl(config, io);
  // Without a control section, where the bot's own defaults would read the token.
  const tokenSource = config.control ?? { token_env: DEFAULT_CONTROL_TOKEN_ENV };
  const token = await loadControlToken(tokenSource, io.env, io.cwd);
  if (token === undefined)
    throw new PerpbotError(`no control token: ${tokenSource.token_env} is not set`, {
      code: 'CONTROL_TOKEN',
      hints: ["set it to the bot's token (or point control.token_file at a file holding it, chmod 600)"],
    });
  const reason = stringFlag(args, 'reason');
  const done = await requestKillSwitch({ url, token, action, reason });
  if (booleanFlag(args, 'json')) io.stdout.write(`${JSON.stringify({ url, ...done }, null, 2)}\n`);
  else
    io.stdout.write(
      done.killSwitch.tripped
        ? `kill switch tripped at ${url}: the bot cancels every open order and opens nothing until a reset\n`
        : `kill switch reset at ${url}: the bot trades again\n`,
    );
  return 0;
}

function actionOf(given: string | undefined): KillSwitchAction {
  if (given === 'trip' || given === 'reset') return given;
  throw new CliUsageError(`perpbot kill-switch: expected trip or reset, got ${JSON.stringify(given)}`, [
    'usage: perpbot kill-switch trip|reset [--config FILE] [--reason TEXT] [--url URL] [--json]',
  ]);
}

/** The control server the running bot recorded beside the config's journal. */
function recordedUrl(config: Config, io: CliIo): string {
  const journal = resolve(io.cwd, config.journal.path);
  const record = liveControlRecord(controlFileFor(journal));
  if (record !== undefined) return record.url;
  throw new PerpbotError(
    `no running bot found: no live process recorded a control server beside the journal ${journal}`,
    {
      code: 'KILL_SWITCH_FAILED',
      details: { journal },
      hints: [
        'run it with the config the bot runs with (--config), or give its control server with --url',
        'the bot records it only with a control: section (or perpbot start --control-port N)',
        'to take every order off the venue without the bot: perpbot cancel-all --config FILE',
      ],
    },
  );
}
