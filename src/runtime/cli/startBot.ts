import { generatePrivateKey } from 'viem/accounts';
import type { Address } from '../../core/address.js';
import type { Clock } from '../../core/clock.js';
import { registerSecret } from '../../core/secretRegistry.js';
import { fastPrivateKeySigner } from '../../protocol/nativeSigner.js';
import { startSim, type RunningSim } from '../../sim/startSim.js';
import type { Config } from '../config/configSchema.js';
import { parseStrategyParams } from '../config/parseStrategyParams.js';
import type { Logger } from '../logging/createLogger.js';
import { runBot, type BotKeys } from '../runBot.js';
import { SetupError } from '../setup/setupError.js';
import { setupAccount } from '../setup/setupAccount.js';
import { readSignerStatus, SESSION_KEY_ACTIVE } from '../setup/signerStatus.js';
import { loadStrategies } from '../wiring/loadStrategies.js';
import { configuredMarkets, createCliRestClient, selectorsOf, usesEmbeddedSim } from './cliContext.js';

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
  const hosted = await loadStrategies(config, options.cwd);
  hosted.forEach((strategy, index) => parseStrategyParams(strategy.definition.params, strategy.params, index));

  let sim: RunningSim | undefined;
  try {
    let keys: BotKeys;
    let restUrl: string;
    let wsUrl: string;
    if (usesEmbeddedSim(config)) {
      sim = await startSim({
        host: '127.0.0.1',
        port: config.sim.port,
        seed: config.sim.seed,
        blockMs: config.sim.block_ms,
        registrationLagMs: config.sim.registration_lag_ms,
        selectors: selectorsOf(config),
        clock: options.clock,
        onError: (error) => logger.error({ err: error }, 'simulator internal error'),
      });
      options.onSim?.(sim);
      ({ restUrl, wsUrl } = sim);
      logger.info({ rest: restUrl, ws: wsUrl }, 'embedded simulator started');
      keys = await throwawayAccount(config, restUrl, options);
    } else {
      restUrl = config.venue.rest_url ?? '';
      wsUrl = config.venue.ws_url ?? '';
      keys = await options.loadKeys();
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
      ...(options.env === undefined ? {} : { env: options.env }),
      ...(options.statusLine === undefined ? {} : { statusLine: options.statusLine }),
    });
  } finally {
    if (sim !== undefined) {
      await sim.close();
      logger.info({}, 'embedded simulator stopped');
    }
  }
}

/**
 * Fresh keys for the embedded simulator, generated here and never written anywhere; the account
 * is funded by the faucet and the signer registered by the setup flow.
 */
async function throwawayAccount(config: Config, restUrl: string, options: StartBotOptions): Promise<BotKeys> {
  const accountKey = generatePrivateKey();
  const account = fastPrivateKeySigner(accountKey);
  const signerKey = generatePrivateKey();
  const signer = fastPrivateKeySigner(signerKey);
  // Setup logs before runBot registers them: the redactor must know them from here on.
  registerSecret(accountKey);
  registerSecret(signerKey);
  const firstMarket = configuredMarkets(config)[0];
  await setupAccount({
    rest: createCliRestClient(config, restUrl, options.logger),
    account,
    signer,
    clock: options.clock,
    log: options.logger.child({ component: 'setup' }),
    faucet: true,
    registration: {
      attempts: config.engine.registration_retry.attempts,
      baseMs: config.engine.registration_retry.base_ms,
    },
    ...(firstMarket === undefined
      ? {}
      : {
          tradingProbe: {
            marketId: firstMarket,
            selectors: selectorsOf(config),
            deadlineSeconds: config.auth.permit_deadline_seconds,
          },
        }),
    // JWT mode also needs the operator-hub allowance (approve-single) before trading.
    ...(config.auth.mode === 'jwt' ? { jwt: { budget: '100000', validForSeconds: 7 * 24 * 3600 } } : {}),
    signal: options.signal,
  });
  return {
    account: { address: account.address, privateKey: accountKey },
    signer: { address: signer.address, privateKey: signerKey },
  };
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
