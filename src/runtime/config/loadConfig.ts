import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parse as parseYaml, YAMLError } from 'yaml';
import { ConfigError } from './configError.js';
import { configErrorFromZod, DEFAULT_REFERENCE } from './configErrorFromZod.js';
import { configSchema, nonTradingConfigSchema, type Config, type NonTradingConfig } from './configSchema.js';
import { deepFreeze } from './deepFreeze.js';
import { refuseSecrets } from './refuseSecrets.js';
import { refuseUnsafeKeys } from './refuseUnsafeKeys.js';
import { substituteEnv, type Env } from './substituteEnv.js';

export interface LoadConfigOptions {
  /** A YAML file to read; exactly one of `path` and `text`. */
  readonly path?: string;
  readonly text?: string;
  /** Usually `process.env`; tests pass their own. */
  readonly env: Env;
  /** The CLI's explicit "I understand this is mainnet" flag. */
  readonly acknowledgeMainnet?: boolean;
  /** Where the commented default config is, as the user reaches it, for the hints (default config/default.yaml). */
  readonly reference?: string;
}

/** These override the venue URLs of any profile, so one file can point at different hosts. */
export const REST_URL_ENV = 'PERPBOT_REST_URL';
export const WS_URL_ENV = 'PERPBOT_WS_URL';
export const MAINNET_ACK_ENV = 'PERPBOT_I_UNDERSTAND_MAINNET';

/**
 * YAML -> no `__proto__`-like keys -> secret check -> `${ENV}` substitution -> secret check again
 * (a key can arrive through a variable) -> URL overrides -> schema -> mainnet acknowledgement ->
 * deeply frozen `Config`.
 * Every failure is a `ConfigError` naming the path; secrets are never echoed.
 */
export async function loadConfig(options: LoadConfigOptions): Promise<Config> {
  return (await withSchema(options, configSchema)) as Config;
}

/** As loadConfig, for a command that never trades: the `risk:` section may be left out. */
export async function loadNonTradingConfig(options: LoadConfigOptions): Promise<NonTradingConfig> {
  return withSchema(options, nonTradingConfigSchema);
}

type ConfigSchema = typeof configSchema | typeof nonTradingConfigSchema;

async function withSchema(options: LoadConfigOptions, schema: ConfigSchema): Promise<Config | NonTradingConfig> {
  const { path, text } = options;
  if ((path === undefined) === (text === undefined)) {
    throw ConfigError.at('', 'loadConfig needs exactly one of path and text');
  }
  let source: string;
  if (path !== undefined) {
    try {
      source = await readFile(path, 'utf8');
    } catch (cause) {
      throw new ConfigError([{ path: '', problem: `cannot read config file ${path} (${errorCode(cause)})` }], {
        cause,
        hints: [
          `check the path given with --config; the bundled profiles are default.yaml, testnet.yaml and mainnet.yaml in ${dirname(options.reference ?? DEFAULT_REFERENCE)}/`,
        ],
      });
    }
  } else {
    source = text ?? '';
  }
  return withSource(path, () => parseConfigText(source, options, schema));
}

function parseConfigText(text: string, options: LoadConfigOptions, schema: ConfigSchema): Config | NonTradingConfig {
  const raw = parseYamlText(text);
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw ConfigError.at(
      '',
      `expected a mapping of sections (venue, risk, strategies, ...), got ${raw === null ? 'an empty document' : Array.isArray(raw) ? 'a list' : typeof raw}`,
    );
  }
  refuseUnsafeKeys(raw);
  refuseSecrets(raw);
  const substituted = substituteEnv(raw, options.env);
  refuseSecrets(substituted);
  const input = applyUrlOverrides(substituted, options.env);
  const result = schema.safeParse(input);
  if (!result.success)
    throw configErrorFromZod(result.error, input, {
      schema,
      ...(options.reference === undefined ? {} : { reference: options.reference }),
    });
  const config = result.data as Config | NonTradingConfig;
  requireMainnetAcknowledgement(config, options);
  return deepFreeze(config);
}

function parseYamlText(text: string): unknown {
  try {
    return parseYaml(text);
  } catch (cause) {
    if (cause instanceof YAMLError) {
      // Only the first line: the rest quotes the source, which may hold the very secret we refuse.
      const summary = cause.message.split('\n')[0]?.replace(/:$/, '') ?? cause.code;
      throw new ConfigError([{ path: '', problem: `invalid YAML: ${summary}` }], {
        hints: ['check indentation and quoting at that line'],
      });
    }
    throw cause;
  }
}

function applyUrlOverrides(tree: unknown, env: Env): unknown {
  const rest = nonEmpty(env[REST_URL_ENV]);
  const ws = nonEmpty(env[WS_URL_ENV]);
  if (rest === undefined && ws === undefined) return tree;
  if (tree === null || typeof tree !== 'object') return tree;
  const root = { ...(tree as Record<string, unknown>) };
  const venue = root['venue'];
  if (venue === null || typeof venue !== 'object' || Array.isArray(venue)) return tree;
  root['venue'] = {
    ...venue,
    ...(rest === undefined ? {} : { rest_url: rest }),
    ...(ws === undefined ? {} : { ws_url: ws }),
  };
  return root;
}

function requireMainnetAcknowledgement(config: NonTradingConfig, options: LoadConfigOptions): void {
  if (config.venue.profile !== 'mainnet') return;
  if (options.acknowledgeMainnet === true || options.env[MAINNET_ACK_ENV] === 'yes') return;
  throw ConfigError.at(
    'venue.profile',
    'profile "mainnet" trades real funds and needs an explicit acknowledgement, which was not given',
    [
      `pass --i-understand-mainnet, or set ${MAINNET_ACK_ENV}=yes`,
      'use profile testnet or sim to try a strategy first',
    ],
  );
}

function withSource<T>(path: string | undefined, run: () => T): T {
  if (path === undefined) return run();
  try {
    return run();
  } catch (error) {
    if (error instanceof ConfigError) {
      const [first, ...rest] = error.problems;
      if (first !== undefined)
        throw new ConfigError([first, ...rest], { hints: error.hints, source: path, cause: error.cause });
    }
    throw error;
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function errorCode(error: unknown): string {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : 'unreadable';
}
