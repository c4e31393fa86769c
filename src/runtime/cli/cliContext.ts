import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Address } from '../../core/address.js';
import type { SyncDigestSigner } from '../../protocol/digestSigner.js';
import { fastPrivateKeySigner } from '../../protocol/nativeSigner.js';
import { createRestClient, type RestClient } from '../../venue/rest/restClient.js';
import { DEFAULT_READ_DEADLINE_MS } from '../../venue/rest/restTransport.js';
import { ConfigError } from '../config/configError.js';
import type { Config, NonTradingConfig } from '../config/configSchema.js';
import {
  loadConfig,
  loadNonTradingConfig,
  REST_URL_ENV,
  WS_URL_ENV,
  type LoadConfigOptions,
} from '../config/loadConfig.js';
import { loadVenueKeys, type VenueKeys } from '../account/keys/loadVenueKeys.js';
import { createLogger, type Logger, type LoggerOptions } from '../operations/logging/createLogger.js';
import { logRestRetry } from '../bot/startup/logRestRetry.js';
import { bindUntilDeadline, type VenueWait } from '../bot/startup/untilDeadline.js';
import type { TextSink } from '../../core/textSink.js';
import type { CliIo } from './cliIo.js';
import { CliUsageError } from './cliUsageError.js';
import type { ParsedArgs } from './commandSpec.js';
import { booleanFlag, stringFlag } from './parseCommandArgs.js';

export { configuredMarkets } from '../config/configuredMarkets.js';
export { selectorsOf } from '../config/selectorsOf.js';

export const DEFAULT_CONFIG_PATH = 'config/default.yaml';

// src/runtime/cli -> the package root, for the bundled config when run outside the repo.
const PACKAGE_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** The config named by --config (relative to the working directory), or the bundled default. */
export function configPathOf(args: ParsedArgs, io: CliIo): string {
  const given = stringFlag(args, 'config');
  if (given !== undefined) return resolve(io.cwd, given);
  const local = resolve(io.cwd, DEFAULT_CONFIG_PATH);
  return existsSync(local) ? local : join(PACKAGE_ROOT, DEFAULT_CONFIG_PATH);
}

export async function loadCliConfig(args: ParsedArgs, io: CliIo): Promise<Config> {
  return loadConfig(cliConfigOptions(args, io));
}

/** For a command that never trades (`record`): a config without `risk:` is fine. */
export async function loadCliNonTradingConfig(args: ParsedArgs, io: CliIo): Promise<NonTradingConfig> {
  return loadNonTradingConfig(cliConfigOptions(args, io));
}

function cliConfigOptions(args: ParsedArgs, io: CliIo): LoadConfigOptions {
  return {
    path: configPathOf(args, io),
    env: io.env,
    acknowledgeMainnet: booleanFlag(args, 'i-understand-mainnet'),
    reference: defaultConfigShown(io.cwd),
  };
}

/**
 * The commented default config as a user in `cwd` reaches it: config/default.yaml in a checkout,
 * node_modules/perpbot/config/default.yaml in a project that installed perpbot (its absolute path
 * when neither is below `cwd`), so a config error's hint names a file that is there.
 */
export function defaultConfigShown(cwd: string): string {
  if (existsSync(resolve(cwd, DEFAULT_CONFIG_PATH))) return DEFAULT_CONFIG_PATH;
  const bundled = join(PACKAGE_ROOT, DEFAULT_CONFIG_PATH);
  const shown = relative(cwd, bundled);
  return shown.startsWith('..') || isAbsolute(shown) ? bundled : shown;
}

export interface VenueUrls {
  readonly restUrl: string;
  readonly wsUrl: string;
}

/** True when `start` runs the simulator itself: profile sim and no venue URLs. */
export function usesEmbeddedSim(config: NonTradingConfig): boolean {
  return config.venue.profile === 'sim' && config.venue.rest_url === undefined;
}

/**
 * The venue a one-shot command talks to. Profile sim without URLs has no venue outside
 * `perpbot start`, which runs its own simulator and throws it away on exit.
 */
export function remoteVenue(config: NonTradingConfig, command: string): VenueUrls {
  const { rest_url: restUrl, ws_url: wsUrl } = config.venue;
  if (restUrl === undefined || wsUrl === undefined) {
    throw ConfigError.at(
      'venue.rest_url',
      `perpbot ${command} needs a running venue, and profile sim without URLs has one only inside perpbot start`,
      [
        `start a simulator with \`perpbot sim\` and export ${REST_URL_ENV} and ${WS_URL_ENV} with the URLs it prints`,
        'or pass --config config/testnet.yaml',
      ],
    );
  }
  return { restUrl, wsUrl };
}

/**
 * The REST client of a command (and of the bot's own set-up): reads are retried for at most the
 * start-up deadline (30 s at most per read), and with a logger each wait is logged.
 */
export function createCliRestClient(config: Config, restUrl: string, log?: Pick<Logger, 'warn'>): RestClient {
  return createRestClient({
    baseUrl: restUrl,
    timeoutMs: config.venue.request_timeout_ms,
    userAgent: 'perpbot',
    readDeadlineMs: Math.min(DEFAULT_READ_DEADLINE_MS, config.venue.startup_deadline_ms),
    ...(log === undefined ? {} : { onRetry: logRestRetry(log) }),
  });
}

/** Runs a command's venue reads again while they fail transiently, until `venue.startup_deadline_ms`. */
export function cliVenueWait(config: Config, io: CliIo, log: Pick<Logger, 'warn'>): VenueWait {
  return bindUntilDeadline({ deadlineMs: config.venue.startup_deadline_ms, clock: io.clock, log, signal: io.shutdown });
}

export function createCliLogger(
  config: NonTradingConfig,
  destination: TextSink,
  level?: LoggerOptions['level'],
): Logger {
  return createLogger({ level: level ?? config.logging.level, pretty: config.logging.pretty, destination });
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** --log-level, checked against pino's levels. */
export function logLevelFlag(args: ParsedArgs): LoggerOptions['level'] | undefined {
  const text = stringFlag(args, 'log-level');
  if (text === undefined) return undefined;
  const level = LOG_LEVELS.find((l) => l === text);
  if (level === undefined)
    throw new CliUsageError(
      `--log-level: invalid value ${JSON.stringify(text)}; expected one of ${LOG_LEVELS.join(', ')}`,
    );
  return level;
}

export interface CliKeys {
  readonly keys: VenueKeys;
  /** Signs setup only (register or revoke a signer, login, approve-single). */
  readonly account: SyncDigestSigner & { readonly address: Address };
  /** The session key: signs every permit. */
  readonly signer: SyncDigestSigner & { readonly address: Address };
}

/** Both keys from the environment or the configured files (paths relative to the working directory). */
export async function loadCliKeys(config: Config, io: CliIo): Promise<CliKeys> {
  if (config.venue.profile === 'paper')
    throw ConfigError.at(
      'venue.profile',
      'profile paper has no account on the venue (its bot trades on a local shadow with keys made for the run), so this command has nothing to sign for',
      [
        '`perpbot start` runs a paper bot; `perpbot status` reads a running one',
        'use a testnet or mainnet config for this command',
      ],
    );
  const at = (file: string | undefined): string | undefined =>
    file === undefined || isAbsolute(file) ? file : resolve(io.cwd, file);
  const keys = await loadVenueKeys(
    { account_key_file: at(config.keys.account_key_file), signer_key_file: at(config.keys.signer_key_file) },
    io.env,
  );
  return {
    keys,
    account: fastPrivateKeySigner(keys.account.privateKey),
    signer: fastPrivateKeySigner(keys.signer.privateKey),
  };
}
