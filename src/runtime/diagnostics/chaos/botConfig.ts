import { writePrivateFile } from '../../../core/privateFiles.js';
import { stringify } from 'yaml';
import type { Config } from '../../config/configSchema.js';

export interface BotConfigTarget {
  readonly restUrl: string;
  readonly wsUrl: string;
  readonly journalPath: string;
}

const VERBOSE = new Set(['debug', 'trace']);

/**
 * The config the bot runs with under chaos: the user's strategies, risk, engine, degraded and
 * shutdown settings unchanged, pointed at the chaos simulator (profile sim with its URLs), with
 * its own journal, keys from the environment only, JSON log lines at info or more (the audit
 * reads them), and never a dry run (there would be nothing to audit).
 */
export function botConfigFor(config: Config, target: BotConfigTarget): Record<string, unknown> {
  const { keys: _keys, venue, ...rest } = config;
  return escapeEnv({
    ...rest,
    venue: { ...venue, profile: 'sim', rest_url: target.restUrl, ws_url: target.wsUrl },
    engine: { ...config.engine, dry_run: false },
    logging: { level: VERBOSE.has(config.logging.level) ? config.logging.level : 'info', pretty: false },
    journal: { path: target.journalPath },
  }) as Record<string, unknown>;
}

export async function writeBotConfig(path: string, config: Config, target: BotConfigTarget): Promise<void> {
  const header = '# Written by perpbot chaos for one run: the configured strategies against the chaos simulator.\n';
  await writePrivateFile(path, header + stringify(botConfigFor(config, target)));
}

/** `${` in a loaded value is literal text now: written back, it must not be substituted again. */
function escapeEnv(value: unknown): unknown {
  // A function replacer: in a replacement string `$$` would itself mean one `$`.
  if (typeof value === 'string') return value.replaceAll('${', () => '$${');
  if (Array.isArray(value)) return value.map(escapeEnv);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, escapeEnv(v)]));
  return value;
}
