import { z } from 'zod';
import { DEFAULT_BUSY_POLL_WINDOW_MS } from '../../core/busyPoll.js';
import type { RiskLimits, StrategyRiskLimits } from '../../engine/guards/riskLimits.js';
import type { SelectorProfile } from '../../protocol/selectors.js';
import { DEFAULT_BLOCK_MS } from '../../sim/simDefaults.js';
import type { FreshnessChannel } from '../../strategy/strategyDefinition.js';
import { ALERT_EVENTS, DEFAULT_ALERT_EVENTS } from './alertEvents.js';
import { decimal, filePath, flag, integer, millis, urlWithScheme } from './configFields.js';
import type { DeepReadonly } from './deepFreeze.js';
import { sweepSchema } from './sweepSchema.js';
import { protectionKeeperSchema, protectionSchema, sharedProtectedMarkets } from './protectionSchema.js';

/**
 * The shape of a perpbot YAML config. Every object is strict: an unknown key is an error, because
 * a misspelt limit that silently falls back to its default is how a bot overtrades a live account.
 */

/**
 * `paper`: the venue's public feeds (its URLs) drive a local shadow the bot trades on; no keys,
 * nothing signed for the venue.
 */
export const VENUE_PROFILES = ['sim', 'paper', 'testnet', 'mainnet'] as const;

/** The protocol's selector tables by name (spec: SVC_PERPS_*_V1, rise: RISE_PERPS_*_V1). */
export const SELECTOR_NAMES = ['spec', 'rise'] as const satisfies readonly SelectorProfile[];

const venueSchema = z
  .strictObject({
    profile: z.enum(VENUE_PROFILES),
    rest_url: urlWithScheme(['http', 'https']).optional(),
    ws_url: urlWithScheme(['ws', 'wss']).optional(),
    selectors: z.enum(SELECTOR_NAMES).default('spec'),
    request_timeout_ms: millis(300_000).default(10_000),
    // How long start-up and the one-shot commands keep retrying venue reads that fail transiently
    // (timeouts, refused connections, 5xx, 429) before giving up with one error.
    startup_deadline_ms: millis(3_600_000).default(120_000),
  })
  .superRefine((venue, ctx) => {
    const remote = venue.profile !== 'sim';
    for (const [field, envName] of [
      ['rest_url', 'PERPBOT_REST_URL'],
      ['ws_url', 'PERPBOT_WS_URL'],
    ] as const) {
      const other = field === 'rest_url' ? venue.ws_url : venue.rest_url;
      if (venue[field] !== undefined) continue;
      if (remote) {
        ctx.addIssue({
          code: 'custom',
          path: [field],
          input: undefined,
          message: `required for profile ${venue.profile}; set it in the file or export ${envName}`,
        });
      } else if (other !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: [field],
          input: undefined,
          message: `required when the other venue URL is set (profile sim connects to an external simulator only with both); set it or export ${envName}`,
        });
      }
    }
    if (venue.profile === 'mainnet') {
      // Signatures and JWTs travel in these connections.
      if (venue.rest_url?.startsWith('http://') === true)
        ctx.addIssue({
          code: 'custom',
          path: ['rest_url'],
          input: venue.rest_url,
          message: 'expected an https:// URL on mainnet',
        });
      if (venue.ws_url?.startsWith('ws://') === true)
        ctx.addIssue({
          code: 'custom',
          path: ['ws_url'],
          input: venue.ws_url,
          message: 'expected a wss:// URL on mainnet',
        });
    }
  });

const keysSchema = z.strictObject({
  account_key_file: filePath().optional(),
  signer_key_file: filePath().optional(),
});

const authSchema = z.strictObject({
  mode: z.enum(['permit', 'jwt']).default('permit'),
  // uint32 unix-seconds deadlines; a permit lives from signing until it is mined.
  permit_deadline_seconds: integer(1, 86_400).default(60),
});

const engineSchema = z
  .strictObject({
    // The engine refuses bounds above 500 bps (a typo must not become a 90% bound).
    max_slippage_bps: integer(1, 500).default(50),
    // This process uses bit indexes i with i % n == k, so n processes can share one account's nonces.
    nonce_slot: z.strictObject({ k: integer(0, 207).default(0), n: integer(1, 208).default(1) }).prefault({}),
    registration_retry: z
      .strictObject({ attempts: integer(1, 100).default(10), base_ms: millis(60_000).default(500) })
      .prefault({}),
    dry_run: flag().default(false),
  })
  .superRefine((engine, ctx) => {
    if (engine.nonce_slot.k >= engine.nonce_slot.n) {
      ctx.addIssue({
        code: 'custom',
        path: ['nonce_slot', 'k'],
        input: engine.nonce_slot.k,
        message: `expected k below n (${engine.nonce_slot.n})`,
      });
    }
  });

/**
 * The account's signed actions per second when the config sets none, from the venue's published
 * limit (venue-facts: 500 REST requests per 10 s per IP): a bucket refilled at 40/s with a burst of
 * 40 sends at most 40 + 10 × 40 = 440 actions in any 10 s window, leaving 60 for the reads that
 * share the address (reconciliation, landing evidence, `perpbot status`). A requote (a cancel and a
 * place a side) is never held back a slot at a time by it.
 */
export const DEFAULT_MAX_ACTIONS_PER_SECOND = 40;

// Notionals are USDC: an order's size × price, a position's |size| × mark (per market).
const riskFields = {
  max_order_notional: decimal({ positive: true }),
  max_position_per_market: decimal({ positive: true }),
  max_open_orders: integer(1, 10_000),
  max_actions_per_second: integer(1, 1_000),
  kill_switch: z.strictObject({ max_loss: decimal({ positive: true }) }),
};

export const riskSchema = z.strictObject({
  ...riskFields,
  max_actions_per_second: riskFields.max_actions_per_second.default(DEFAULT_MAX_ACTIONS_PER_SECOND),
});
// A strategy's own budget over the global limits (effectiveRisk), every field enforced per strategy
// on what it did in this run: its open and in-flight orders, its actions per second, and the net
// position and PnL of its own fills (the engine's strategy budgets, engine/admission). The global
// limits still bind the account.
export const strategyRiskSchema = z.strictObject(riskFields).partial();
// The engine reads the limits in this shape (engine/guards/riskLimits.ts): the schemas must produce it.
riskSchema satisfies z.ZodType<RiskLimits>;
strategyRiskSchema satisfies z.ZodType<StrategyRiskLimits>;

// A module is a path under strategies/ (resolved from the working directory) or a package name.
const MODULE_PATH = /^(?:\.\/)?strategies\/(?:[A-Za-z0-9_.-]+\/)*[A-Za-z0-9_-][A-Za-z0-9_.-]*\.(?:ts|js|mts|mjs)$/;
const PACKAGE_NAME = /^(?:@[a-z0-9~-][a-z0-9._~-]*\/)?[a-z0-9~-][a-z0-9._~-]*$/;

const strategySchema = z.strictObject({
  name: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, 'expected a name of letters, digits, _ . - (at most 64)'),
  module: z
    .string()
    .trim()
    .refine(
      (m) => (MODULE_PATH.test(m) && !m.split('/').includes('..')) || PACKAGE_NAME.test(m),
      'expected a path under strategies/ such as "strategies/marketMaker.ts", or a package name',
    ),
  // Market ids fit in 16 bits (the packed order word gives them 16).
  markets: z
    .array(integer(1, 65_535))
    .min(1)
    .refine((ids) => new Set(ids).size === ids.length, 'expected each market at most once'),
  // Opaque here: the strategy validates its own params with its own schema when it is loaded.
  params: z.record(z.string(), z.unknown()).default({}),
  risk: strategyRiskSchema.optional(),
  on_error: z.enum(['cancel', 'keep']).default('cancel'),
  // The venue's TP/SL orders kept equal to this strategy's position (protectionSchema.ts).
  protection: protectionSchema.optional(),
  // Overrides the freshness budgets the strategy declares (ms per stream, see FRESHNESS_CHANNELS).
  freshness: z
    .strictObject({
      book: millis(3_600_000).optional(),
      mark: millis(3_600_000).optional(),
      trades: millis(3_600_000).optional(),
    } satisfies Record<FreshnessChannel, unknown>)
    .optional(),
});

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const loggingSchema = z.strictObject({
  level: z.enum(LOG_LEVELS).default('info'),
  pretty: z.union([z.literal('auto'), flag()]).default('auto'),
});

const shutdownSchema = z.strictObject({
  open_orders: z.enum(['cancel', 'keep']).default('cancel'),
  // Positions in the bot's markets at exit: keep them (default), or close each with a reduce-only market order.
  positions: z.enum(['close', 'keep']).default('keep'),
  timeout_ms: millis(600_000).default(10_000),
  // When every strategy has declared itself done: stop the bot (exit 0), or keep it running idle.
  when_all_done: z.enum(['stop', 'idle']).default('idle'),
  // The strategies' TP/SL orders at exit: keep them protecting the positions (default), or cancel them.
  protection: z.enum(['keep', 'cancel']).default('keep'),
});

const journalSchema = z.strictObject({
  path: filePath().default('data/journal.sqlite'),
});

// Recordings of the venue's frames (`perpbot record`): where they go, how they rotate, and the
// most they may take on disk; the oldest segment is deleted before the budget would be passed.
const recorderSchema = z
  .strictObject({
    // Default: a `recordings` directory beside the journal.
    dir: filePath().optional(),
    // The flight recorder of `perpbot start`: its frames, REST exchanges, intents, outcomes and
    // order events, for `perpbot replay FLIGHT --verify`. Default: a `flight` directory beside the journal.
    enabled: flag().default(false),
    flight_dir: filePath().optional(),
    max_disk_mb: integer(1, 10_000_000).default(2_048),
    segment_mb: integer(1, 100_000).default(32),
    segment_minutes: integer(1, 24 * 60).default(60),
  })
  .refine((r) => r.segment_mb * 1.25 <= r.max_disk_mb, {
    message: 'expected segment_mb at most 80 % of max_disk_mb (a segment being written is kept room for)',
    path: ['segment_mb'],
  });

// `perpbot replay`: the venue's fees (whole basis points of notional), the one-way wire latency in
// virtual ms, and the USDC the replayed account starts with. The flags override them.
const replaySchema = z.strictObject({
  maker_fee_bps: integer(0, 1_000).default(2),
  taker_fee_bps: integer(0, 1_000).default(5),
  latency_ms: integer(0, 60_000).default(0),
  balance: decimal({ positive: true }).default('100000'),
});

// While the private feeds are down or unreconciled the engine opens nothing; these say what still
// goes, and how long an outage may last before the kill switch trips (then stop, or keep waiting).
const degradedSchema = z.strictObject({
  allow_cancels: flag().default(true),
  allow_reduce_only: flag().default(true),
  max_outage_ms: integer(0, 86_400_000).default(300_000),
  on_max_outage: z.enum(['stop', 'wait']).default('stop'),
});

// An order open on the venue that the journal does not know: take it over, cancel it, or only report it.
const reconcileSchema = z.strictObject({ unknown_orders: z.enum(['adopt', 'cancel', 'leave']).default('leave') });

// The control server (health, readiness, metrics, status, dashboard, kill switch): off unless
// configured. Loopback by default; the kill-switch token comes from token_env or token_file, never
// from this file.
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Where the kill switch's token is read from when the config names no other variable. */
export const DEFAULT_CONTROL_TOKEN_ENV = 'PERPBOT_CONTROL_TOKEN';
const controlSchema = z.strictObject({
  host: z.string().trim().min(1).default('127.0.0.1'),
  // 0 picks a free port (logged, and recorded beside the journal for `perpbot status`).
  port: integer(0, 65_535),
  token_env: z.string().regex(ENV_NAME, 'expected an environment variable name').default(DEFAULT_CONTROL_TOKEN_ENV),
  token_file: filePath().optional(),
  // Host names (besides 127.0.0.1, localhost and [::1]) the server answers: any other Host gets 421.
  allowed_hosts: z.array(z.string().trim().min(1)).default([]),
});

// Alerts posted to a webhook (Slack-style JSON with a `text` field). The URL carries a credential,
// so the file names the environment variable that holds it.
const alertsSchema = z.strictObject({
  webhook_url_env: z.string().regex(ENV_NAME, 'expected an environment variable name'),
  events: z
    .array(z.enum(ALERT_EVENTS))
    .refine((events) => new Set(events).size === events.length, 'expected each event at most once')
    .default([...DEFAULT_ALERT_EVENTS]),
  timeout_ms: millis(60_000).default(5_000),
  // Attempts per alert, the first included; backoff doubles from 1 s.
  attempts: integer(1, 20).default(5),
});

// Busy polling: the event loop spins (one core at 100 %) while venue frames keep arriving, so a
// frame finds the core awake; off by default. See src/core/busyPoll.ts for why and what it costs.
const busyPollSchema = z.strictObject({
  enabled: flag().default(false),
  // Spin this long after the last frame, then block as usual until frames come again.
  window_ms: integer(1, 60_000).default(DEFAULT_BUSY_POLL_WINDOW_MS),
});

const simSchema = z.strictObject({
  seed: integer(0, 0xffff_ffff).default(1),
  block_ms: millis(60_000).default(DEFAULT_BLOCK_MS),
  registration_lag_ms: integer(0, 600_000).default(2_000),
  port: integer(0, 65_535).default(0),
});

const sections = {
  venue: venueSchema,
  keys: keysSchema.prefault({}),
  auth: authSchema.prefault({}),
  engine: engineSchema.prefault({}),
  risk: riskSchema,
  strategies: z.array(strategySchema).min(1),
  logging: loggingSchema.prefault({}),
  shutdown: shutdownSchema.prefault({}),
  journal: journalSchema.prefault({}),
  recorder: recorderSchema.prefault({}),
  replay: replaySchema.prefault({}),
  reconcile: reconcileSchema.prefault({}),
  degraded: degradedSchema.prefault({}),
  sim: simSchema.prefault({}),
  busy_poll: busyPollSchema.prefault({}),
  control: controlSchema.optional(),
  alerts: alertsSchema.optional(),
  // `perpbot sweep`: the params to vary and how (src/runtime/config/sweepSchema.ts).
  sweep: sweepSchema.optional(),
  protection: protectionKeeperSchema.prefault({}),
};

function uniqueStrategyNames(
  config: {
    readonly strategies: readonly {
      readonly name: string;
      readonly markets: readonly number[];
      readonly protection?: unknown;
    }[];
  },
  ctx: z.RefinementCtx,
): void {
  const seen = new Map<string, number>();
  config.strategies.forEach((strategy, i) => {
    const first = seen.get(strategy.name);
    if (first !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['strategies', i, 'name'],
        input: strategy.name,
        message: `expected a unique name (strategies[${first}] has it too)`,
      });
    }
    seen.set(strategy.name, i);
  });
  for (const shared of sharedProtectedMarkets(config.strategies)) {
    ctx.addIssue({
      code: 'custom',
      path: ['strategies'],
      input: shared.strategies,
      message: `market ${shared.marketId} is traded by ${shared.strategies.join(', ')}: a strategy with protection: must trade its markets alone (the venue's TP/SL closes the account's whole position there)`,
    });
  }
}

export const configSchema = z.strictObject(sections).superRefine(uniqueStrategyNames);

/**
 * For a command that never trades (`perpbot record`): the same file, its `risk:` section optional
 * (checked when present), since nothing it does is limited by it.
 */
export const nonTradingConfigSchema = z
  .strictObject({ ...sections, risk: riskSchema.optional() })
  .superRefine(uniqueStrategyNames);

/** A validated config; deeply frozen at runtime, deeply readonly in types. */
export type Config = DeepReadonly<z.output<typeof configSchema>>;
/** What a command that never trades reads: every section but `risk:`. */
export type NonTradingConfig = Omit<Config, 'risk'>;
export type ControlConfig = NonNullable<Config['control']>;
