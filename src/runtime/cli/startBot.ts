import { resolve } from 'node:path';
import type { Address } from '../../core/address.js';
import type { Clock } from '../../core/clock.js';
import type { RunningSim } from '../../sim/startSim.js';
import type { Config } from '../config/configSchema.js';
import { holdJournal } from '../../journal/holdJournal.js';
import type { Logger } from '../operations/logging/createLogger.js';
import { runBot, type BotKeys, type RunBotOptions } from '../bot/runBot.js';
import { SetupError } from '../account/setupError.js';
import { readSignerStatus, SESSION_KEY_ACTIVE } from '../account/signerStatus.js';
import { readAndCheckMarkets } from '../bot/startup/checkConfiguredMarkets.js';
import { bindUntilDeadline, type VenueWait } from '../bot/startup/untilDeadline.js';
import type { PaperVenue } from '../paper/paperVenue.js';
import { loadStrategies } from '../bot/wiring/loadStrategies.js';
import { checkStrategyTypes } from './checkStrategyTypes.js';
import { createCliRestClient, usesEmbeddedSim } from './cliContext.js';
import { startEmbeddedSim } from './embeddedSim.js';
import { throwawayAccount } from './throwawayAccount.js';

export interface StartBotOptions {
  readonly config: Config;
  readonly logger: Logger;
  readonly clock: Clock;
  /** Strategy module paths are resolved from here. */
  readonly cwd: string;
  /** Aborting it stops the bot (and the embedded simulator) gracefully. */
  readonly signal: AbortSignal;
  /** The configured keys; not read at all when the embedded simulator runs. */
  readonly loadKeys: () => Promise<BotKeys>;
  readonly runBot?: typeof runBot;
  /** Called once the embedded simulator listens (tests use its controls). */
  readonly onSim?: (sim: RunningSim) => void;
  /** Passed on to runBot: the control token and alert webhook are read from it. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Passed on to runBot: the terminal's status line. */
  readonly statusLine?: { write(text: string): void };
  /** Passed on to runBot: the config file's name, for the metrics' `perpbot_info`. */
  readonly configName?: string;
}

/**
 * `perpbot start`: strategies are loaded and their params checked before anything else, so a typo
 * costs nothing. With profile sim and no URLs the simulator starts in this process with
 * throwaway keys that exist only in memory, and the account is funded and its signer registered
 * by the setup flow. Against a real venue the signer must already be Active (`perpbot setup`).
 * Then the bot runs until the signal aborts; the simulator closes after the bot has stopped.
 */
export async function startBot(options: StartBotOptions): Promise<void> {
  const { config, logger, signal } = options;
  // A config mistake is reported as such, even beside a running bot: nothing here touches the journal or venue.
  // First the types, as perpbot check judges them: a module with a type error never runs.
  await checkStrategyTypes(config, options.cwd, options.env ?? {}, logger);
  await loadStrategies(config, options.cwd);
  // Then, before the venue is touched: a second bot on this journal must leave the first
  // one's orders, nonces and control file alone, and say so at once.
  const lock = holdJournal(resolve(options.cwd, config.journal.path), 'start', logger);
  let sim: RunningSim | undefined;
  let paper: PaperVenue | undefined;
  try {
    let keys: BotKeys;
    let restUrl: string;
    let wsUrl: string;
    if (usesEmbeddedSim(config)) {
      sim = await startEmbeddedSim(config, options.clock, logger);
      options.onSim?.(sim);
      ({ restUrl, wsUrl } = sim);
      await checkMarketsBeforeAnyAction(config, restUrl, options);
      keys = await throwawayAccount(config, restUrl, options);
    } else if (config.venue.profile === 'paper') {
      // Loaded only for paper: it brings the simulator, which a bot on a real venue never needs.
      const { startPaperVenue } = await import('../paper/paperVenue.js');
      paper = await startPaperVenue({
        config,
        venueRest: createCliRestClient(config, config.venue.rest_url ?? '', logger),
        wait: startupWait(options),
        clock: options.clock,
        logger,
      });
      options.onSim?.(paper.sim);
      ({ restUrl, wsUrl } = paper.sim);
      keys = await throwawayAccount(config, restUrl, options);
    } else {
      restUrl = config.venue.rest_url ?? '';
      wsUrl = config.venue.ws_url ?? '';
      keys = await options.loadKeys();
      await checkMarketsBeforeAnyAction(config, restUrl, options);
      await requireActiveSigner(config, keys, restUrl, signal, logger);
    }
    signal.throwIfAborted();
    await (options.runBot ?? runBot)({
      config,
      keys,
      restUrl,
      wsUrl,
      logger,
      signal,
      root: options.cwd,
      clock: options.clock,
      ...passedOn(options),
    });
  } finally {
    if (sim !== undefined) {
      await sim.close();
      logger.info({}, 'embedded simulator stopped');
    }
    if (paper !== undefined) {
      await paper.close();
      logger.info({}, 'paper venue stopped');
    }
    lock.release();
  }
}

/** What runBot takes from the CLI as it was given: the environment, the status line, the config's name. */
function passedOn(options: StartBotOptions): Pick<RunBotOptions, 'env' | 'statusLine' | 'configName'> {
  return {
    ...(options.env === undefined ? {} : { env: options.env }),
    ...(options.statusLine === undefined ? {} : { statusLine: options.statusLine }),
    ...(options.configName === undefined ? {} : { configName: options.configName }),
  };
}

/** A market the venue does not have is a config error before the setup flow or the bot acts on any market. */
async function checkMarketsBeforeAnyAction(config: Config, restUrl: string, options: StartBotOptions): Promise<void> {
  await readAndCheckMarkets(config, createCliRestClient(config, restUrl, options.logger), startupWait(options));
}

function startupWait(options: StartBotOptions): VenueWait {
  return bindUntilDeadline({
    deadlineMs: options.config.venue.startup_deadline_ms,
    clock: options.clock,
    log: options.logger,
    signal: options.signal,
  });
}

async function requireActiveSigner(
  config: Config,
  keys: BotKeys,
  restUrl: string,
  signal: AbortSignal,
  logger: Logger,
): Promise<void> {
  const account: Address = keys.account.address;
  const status = await readSignerStatus(
    createCliRestClient(config, restUrl, logger),
    account,
    keys.signer.address,
    signal,
  );
  if (status.status !== SESSION_KEY_ACTIVE) {
    throw new SetupError(
      'start',
      `signer ${keys.signer.address} is not Active for account ${account} (status ${status.status}, ${status.status_description})`,
      {
        details: { account, signer: keys.signer.address, status: status.status },
        hints: ['run perpbot setup with the same --config first (it funds on testnet and registers the signer)'],
      },
    );
  }
}
