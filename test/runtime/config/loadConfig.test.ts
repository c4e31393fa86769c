import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { ConfigError } from '../../../src/runtime/config/configError.js';
import { SELECTOR_PROFILES } from '../../../src/protocol/selectors.js';
import { SELECTOR_NAMES } from '../../../src/runtime/config/configSchema.js';
import { loadConfig } from '../../../src/runtime/config/loadConfig.js';

const KEY = '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';

function base(): Record<string, unknown> {
  return {
    venue: { profile: 'sim' },
    risk: {
      max_order_notional: '1000',
      max_position_per_market: '0.5',
      max_open_orders: 10,
      max_actions_per_second: 5,
      kill_switch: { max_loss: '100' },
    },
    strategies: [{ name: 'mm', module: 'strategies/marketMaker.ts', markets: [1], params: { spread_bps: 10 } }],
  };
}

/** Sets `value` at a dotted path (numeric segments index lists) in a copy of `tree`. */
function withValue(tree: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(tree);
  const segments = path.split('.');
  let node: Record<string, unknown> = copy;
  for (const segment of segments.slice(0, -1)) {
    node[segment] ??= {};
    node = node[segment] as Record<string, unknown>;
  }
  const last = segments.at(-1) ?? '';
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy;
}

async function failure(
  text: string,
  env: Record<string, string> = {},
  acknowledgeMainnet?: boolean,
): Promise<ConfigError> {
  try {
    await loadConfig(acknowledgeMainnet === undefined ? { text, env } : { text, env, acknowledgeMainnet });
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected loadConfig to fail');
}

describe('loadConfig', () => {
  it('fills defaults and returns a deeply frozen config', async () => {
    const config = await loadConfig({ text: stringify(base()), env: {} });
    expect(config.venue).toEqual({
      profile: 'sim',
      selectors: 'spec',
      request_timeout_ms: 10_000,
      startup_deadline_ms: 120_000,
    });
    expect(config.engine).toEqual({
      max_slippage_bps: 50,
      nonce_slot: { k: 0, n: 1 },
      registration_retry: { attempts: 10, base_ms: 500 },
      dry_run: false,
    });
    expect(config.auth).toEqual({ mode: 'permit', permit_deadline_seconds: 60 });
    expect(config.sim).toEqual({ seed: 1, block_ms: 250, registration_lag_ms: 2000, port: 0 });
    expect(config.shutdown).toEqual({
      open_orders: 'cancel',
      positions: 'keep',
      timeout_ms: 10_000,
      when_all_done: 'idle',
      protection: 'keep',
    });
    expect(config.busy_poll).toEqual({ enabled: false, window_ms: 50 });
    expect(config.recorder).toEqual({ enabled: false, max_disk_mb: 2048, segment_mb: 32, segment_minutes: 60 });
    expect(config.strategies[0]?.on_error).toBe('cancel');
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.strategies[0]?.params)).toBe(true);
    expect(Object.isFrozen(config.risk.kill_switch)).toBe(true);
    expect(() => {
      (config.risk.kill_switch as { max_loss: string }).max_loss = '1000000';
    }).toThrow(TypeError);
  });

  it("takes the account's action rate from the venue's published limit when the config gives none", async () => {
    const config = await loadConfig({
      text: stringify(withValue(base(), 'risk.max_actions_per_second', undefined)),
      env: {},
    });
    // 500 REST requests per 10 s per IP: a bucket of 40/s with a burst of 40 sends at most 440 in 10 s.
    expect(config.risk.max_actions_per_second).toBe(40);
    expect(40 + 10 * config.risk.max_actions_per_second).toBeLessThanOrEqual(500);
  });

  it('offers exactly the selector tables the protocol has', () => {
    expect([...SELECTOR_NAMES].sort()).toEqual(Object.keys(SELECTOR_PROFILES).sort());
  });

  it('keeps money as canonical decimal strings', async () => {
    const config = await loadConfig({
      text: stringify(withValue(base(), 'risk.max_order_notional', '01000.500')),
      env: {},
    });
    expect(config.risk.max_order_notional).toBe('1000.5');
    const unquoted = await loadConfig({ text: stringify(withValue(base(), 'risk.max_order_notional', 2500)), env: {} });
    expect(unquoted.risk.max_order_notional).toBe('2500');
  });

  it.each([
    [
      'risk.max_order_notional',
      'abc',
      'config error at risk.max_order_notional: expected a positive decimal string such as "1000.5", got "abc"',
    ],
    [
      'risk.max_order_notional',
      0.1,
      'config error at risk.max_order_notional: expected a positive decimal in quotes such as "0.5" (unquoted YAML decimals are floats and lose digits), got 0.1',
    ],
    [
      'risk.kill_switch.max_loss',
      '0',
      'config error at risk.kill_switch.max_loss: expected a positive decimal, got "0"',
    ],
    [
      'risk.max_open_orders',
      'ten',
      'config error at risk.max_open_orders: expected an integer from 1 to 10000, got "ten"',
    ],
    ['risk.max_open_orders', 2.5, 'config error at risk.max_open_orders: expected an integer from 1 to 10000, got 2.5'],
    [
      'risk.max_actions_per_second',
      0,
      'config error at risk.max_actions_per_second: expected an integer from 1 to 1000, got 0',
    ],
    [
      'venue.profile',
      'prod',
      'config error at venue.profile: expected one of "sim" | "paper" | "testnet" | "mainnet", got "prod"',
    ],
    ['venue.selectors', 'RISE', 'config error at venue.selectors: expected one of "spec" | "rise", got "RISE"'],
    ['venue.rest_url', 'ftp://x', 'config error at venue.rest_url: expected a http:// or https:// URL, got "ftp://x"'],
    ['auth.mode', 'apikey', 'config error at auth.mode: expected one of "permit" | "jwt", got "apikey"'],
    [
      'engine.max_slippage_bps',
      600,
      'config error at engine.max_slippage_bps: expected an integer from 1 to 500, got 600',
    ],
    ['engine.dry_run', 'yes', 'config error at engine.dry_run: expected a boolean, got "yes"'],
    ['engine.nonce_slot.n', 0, 'config error at engine.nonce_slot.n: expected an integer from 1 to 208, got 0'],
    [
      'logging.level',
      'verbose',
      'config error at logging.level: expected one of "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent", got "verbose"',
    ],
    ['logging.pretty', 'maybe', 'config error at logging.pretty: expected "auto" or a boolean, got "maybe"'],
    [
      'shutdown.open_orders',
      'close',
      'config error at shutdown.open_orders: expected one of "cancel" | "keep", got "close"',
    ],
    ['sim.port', 70_000, 'config error at sim.port: expected an integer from 0 to 65535, got 70000'],
    ['busy_poll.window_ms', 0, 'config error at busy_poll.window_ms: expected an integer from 1 to 60000, got 0'],
    ['busy_poll.enabled', 'fast', 'config error at busy_poll.enabled: expected a boolean, got "fast"'],
    ['recorder.max_disk_mb', 0, 'config error at recorder.max_disk_mb: expected an integer from 1 to 10000000, got 0'],
    [
      'recorder.segment_mb',
      2000,
      'config error at recorder.segment_mb: expected segment_mb at most 80 % of max_disk_mb (a segment being written is kept room for), got 2000',
    ],
    ['strategies.0.markets', [], 'config error at strategies[0].markets: expected at least 1 entry, got []'],
    [
      'strategies.0.markets',
      [1, 1],
      'config error at strategies[0].markets: expected each market at most once, got [1,1]',
    ],
    [
      'strategies.0.markets',
      ['btc'],
      'config error at strategies[0].markets[0]: expected an integer from 1 to 65535, got "btc"',
    ],
    [
      'strategies.0.on_error',
      'ignore',
      'config error at strategies[0].on_error: expected one of "cancel" | "keep", got "ignore"',
    ],
    ['strategies.0.params', 'fast', 'config error at strategies[0].params: expected a mapping, got "fast"'],
    [
      'strategies.0.risk',
      { max_open_orders: -1 },
      'config error at strategies[0].risk.max_open_orders: expected an integer from 1 to 10000, got -1',
    ],
    [
      'risk.max_open_orders',
      undefined,
      'config error at risk.max_open_orders: required value is missing (expected an integer from 1 to 10000)',
    ],
  ])('%s = %j fails with its path and value', async (path, value, line) => {
    const error = await failure(stringify(withValue(base(), path, value)));
    expect(error.message.split('\n')).toContain(line);
  });

  it('refuses module paths outside strategies/ and accepts package names', async () => {
    for (const module of ['../evil.ts', 'strategies/../../evil.ts', '/abs/strategy.ts', 'src/x.ts']) {
      const error = await failure(stringify(withValue(base(), 'strategies.0.module', module)));
      expect(error.path).toBe('strategies[0].module');
      expect(error.message).toContain(JSON.stringify(module));
    }
    for (const module of [
      'strategies/marketMaker.ts',
      './strategies/grid/index.js',
      '@acme/perp-strategy',
      'perpbot-twap',
    ]) {
      const config = await loadConfig({ text: stringify(withValue(base(), 'strategies.0.module', module)), env: {} });
      expect(config.strategies[0]?.module).toBe(module);
    }
  });

  it('reports every problem, one line each, and unknown keys by their own path', async () => {
    let tree = withValue(base(), 'risk.max_opne_orders', 5);
    tree = withValue(tree, 'sim.seed', 'x');
    tree = withValue(tree, 'strategies.0.marketz', [2]);
    const error = await failure(stringify(tree));
    const lines = error.message.split('\n');
    expect(lines).toContain('config error at sim.seed: expected an integer from 0 to 4294967295, got "x"');
    expect(lines).toContain(
      'config error at risk.max_opne_orders: unknown key "max_opne_orders" (did you mean "max_open_orders"?)',
    );
    expect(lines).toContain('config error at strategies[0].marketz: unknown key "marketz" (did you mean "markets"?)');
    expect(error.hints.join(' ')).toContain('config/default.yaml');
    expect(error.problems).toHaveLength(lines.length);
  });

  it('lists the allowed keys when an unknown key is not close to any of them', async () => {
    const error = await failure(stringify(withValue(base(), 'shutdown.whatever', 1)));
    expect(error.message).toBe(
      'config error at shutdown.whatever: unknown key "whatever" (allowed here: open_orders, positions, timeout_ms, when_all_done, protection)',
    );
  });

  it('refuses duplicate strategy names and a nonce slot outside its count', async () => {
    const twice = withValue(base(), 'strategies', [
      ...(base()['strategies'] as unknown[]),
      { name: 'mm', module: 'strategies/b.ts', markets: [2] },
    ]);
    expect((await failure(stringify(twice))).message).toContain(
      'config error at strategies[1].name: expected a unique name (strategies[0] has it too), got "mm"',
    );
    const slot = withValue(base(), 'engine.nonce_slot', { k: 3, n: 3 });
    expect((await failure(stringify(slot))).message).toBe(
      'config error at engine.nonce_slot.k: expected k below n (3), got 3',
    );
  });

  it('substitutes environment variables and reads numbers and booleans from them', async () => {
    let tree = withValue(base(), 'sim.port', '${SIM_PORT}');
    tree = withValue(tree, 'engine.dry_run', '${DRY:-false}');
    tree = withValue(tree, 'journal.path', '${DATA_DIR:-data}/j.sqlite');
    const config = await loadConfig({ text: stringify(tree), env: { SIM_PORT: '9100', DRY: 'true' } });
    expect(config.sim.port).toBe(9100);
    expect(config.engine.dry_run).toBe(true);
    expect(config.journal.path).toBe('data/j.sqlite');
  });

  it('names the variable and path when a referenced variable is missing', async () => {
    const error = await failure(stringify(withValue(base(), 'venue.rest_url', '${VENUE_HOST}')));
    expect(error.message).toBe(
      'config error at venue.rest_url: environment variable VENUE_HOST is not set (referenced as ${VENUE_HOST})',
    );
  });

  it('lets PERPBOT_REST_URL and PERPBOT_WS_URL override the URLs of any profile', async () => {
    const env = { PERPBOT_REST_URL: 'https://rest.example/', PERPBOT_WS_URL: 'wss://ws.example/ws' };
    const sim = await loadConfig({ text: stringify(base()), env });
    expect(sim.venue).toMatchObject({
      profile: 'sim',
      rest_url: 'https://rest.example',
      ws_url: 'wss://ws.example/ws',
    });
    let testnet = withValue(base(), 'venue', {
      profile: 'testnet',
      rest_url: 'https://old.example',
      ws_url: 'wss://old.example',
    });
    testnet = withValue(testnet, 'keys.account_key_file', 'k');
    const overridden = await loadConfig({ text: stringify(testnet), env });
    expect(overridden.venue).toMatchObject({ rest_url: 'https://rest.example', ws_url: 'wss://ws.example/ws' });
    const blank = await loadConfig({ text: stringify(testnet), env: { PERPBOT_REST_URL: ' ' } });
    expect(blank.venue.rest_url).toBe('https://old.example');
  });

  it('requires both URLs for testnet and mainnet, and both or neither for sim', async () => {
    const testnet = await failure(stringify(withValue(base(), 'venue', { profile: 'testnet' })));
    expect(testnet.message.split('\n')).toEqual([
      'config error at venue.rest_url: required value is missing (required for profile testnet; set it in the file or export PERPBOT_REST_URL)',
      'config error at venue.ws_url: required value is missing (required for profile testnet; set it in the file or export PERPBOT_WS_URL)',
    ]);
    const half = await failure(stringify(base()), { PERPBOT_REST_URL: 'http://127.0.0.1:9000' });
    expect(half.path).toBe('venue.ws_url');
    expect(half.message).toContain('PERPBOT_WS_URL');
  });

  it('refuses mainnet without acknowledgement and accepts it with the flag or the variable', async () => {
    const mainnet = stringify(
      withValue(base(), 'venue', { profile: 'mainnet', rest_url: 'https://m.example', ws_url: 'wss://m.example' }),
    );
    const refused = await failure(mainnet);
    expect(refused.path).toBe('venue.profile');
    expect(refused.message).toContain(
      'config error at venue.profile: profile "mainnet" trades real funds and needs an explicit acknowledgement',
    );
    expect(refused.hints.join(' ')).toContain('PERPBOT_I_UNDERSTAND_MAINNET=yes');
    expect((await failure(mainnet, { PERPBOT_I_UNDERSTAND_MAINNET: 'true' })).path).toBe('venue.profile');
    expect((await failure(mainnet, {}, false)).path).toBe('venue.profile');
    expect((await loadConfig({ text: mainnet, env: {}, acknowledgeMainnet: true })).venue.profile).toBe('mainnet');
    expect((await loadConfig({ text: mainnet, env: { PERPBOT_I_UNDERSTAND_MAINNET: 'yes' } })).venue.profile).toBe(
      'mainnet',
    );
  });

  it('refuses plaintext URLs on mainnet', async () => {
    const mainnet = stringify(
      withValue(base(), 'venue', { profile: 'mainnet', rest_url: 'http://m.example', ws_url: 'ws://m.example' }),
    );
    const error = await failure(mainnet, {}, true);
    expect(error.message.split('\n')).toEqual([
      'config error at venue.rest_url: expected an https:// URL on mainnet, got "http://m.example"',
      'config error at venue.ws_url: expected a wss:// URL on mainnet, got "ws://m.example"',
    ]);
  });

  it('refuses URLs carrying credentials without echoing them', async () => {
    const error = await failure(stringify(withValue(base(), 'venue.rest_url', 'https://bob:hunter2@h.example')));
    expect(error.path).toBe('venue.rest_url');
    expect(error.message).not.toContain('hunter2');
  });

  it('refuses a private key in the YAML without echoing it', async () => {
    const error = await failure(stringify(withValue(base(), 'keys.private_key', KEY)));
    expect(error.path).toBe('keys.private_key');
    expect(error.message).not.toContain(KEY.slice(2, 18));
  });

  it('refuses a private key that arrives through a variable into an ordinary field', async () => {
    const error = await failure(stringify(withValue(base(), 'strategies.0.params.label', '${LABEL}')), { LABEL: KEY });
    expect(error.path).toBe('strategies[0].params.label');
    expect(error.message).not.toContain(KEY.slice(2, 18));
  });

  it('reports YAML syntax errors without quoting the source', async () => {
    const error = await failure(`venue:\n  profile: sim\n account_key: "${KEY}\n`);
    expect(error.message).toMatch(/^config error at \(top level\): invalid YAML: .*line \d+/);
    expect(error.message).not.toContain(KEY.slice(2, 18));
  });

  it('refuses documents that are empty or not a mapping', async () => {
    expect((await failure('')).message).toBe(
      'config error at (top level): expected a mapping of sections (venue, risk, strategies, ...), got an empty document',
    );
    expect((await failure('- a\n- b\n')).message).toContain('got a list');
  });

  it('reads a file and names it in errors', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'perpbot-config-'));
    const good = join(dir, 'good.yaml');
    const bad = join(dir, 'bad.yaml');
    await writeFile(good, stringify(base()));
    await writeFile(bad, stringify(withValue(base(), 'sim.port', -1)));
    expect((await loadConfig({ path: good, env: {} })).strategies[0]?.name).toBe('mm');
    const error = await loadConfig({ path: bad, env: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toBe(
      `config error at sim.port: expected an integer from 0 to 65535, got -1 (in ${bad})`,
    );
    const missing = await loadConfig({ path: join(dir, 'nope.yaml'), env: {} }).catch((e: unknown) => e);
    expect((missing as ConfigError).message).toContain('ENOENT');
    await rm(dir, { recursive: true, force: true });
  });

  it('needs exactly one of path and text', async () => {
    await expect(loadConfig({ env: {} })).rejects.toBeInstanceOf(ConfigError);
    await expect(loadConfig({ env: {}, text: '', path: 'x' })).rejects.toBeInstanceOf(ConfigError);
  });
});

describe('loadConfig and prototype keys', () => {
  it('refuses a __proto__ key anywhere, so a ${ENV} value cannot slip past the secret check through it', async () => {
    const { strategies: _strategies, ...rest } = base();
    const text = [
      stringify(rest),
      'strategies:',
      '  - name: mm',
      '    module: strategies/marketMaker.ts',
      '    markets: [1]',
      '    params:',
      '      __proto__: { spread_bps: "${PERPBOT_SIGNER_KEY}" }',
      '',
    ].join('\n');
    const error = await failure(text, { PERPBOT_SIGNER_KEY: KEY });
    expect(error.message).toContain('strategies[0].params: the key "__proto__" is not allowed');
    expect(error.message).not.toContain(KEY);
  });

  it('refuses constructor and prototype keys too, and accepts the same file without them', async () => {
    expect((await failure(`${stringify(base())}logging: { constructor: { level: info } }\n`)).message).toContain(
      'logging: the key "constructor" is not allowed',
    );
    await expect(loadConfig({ text: stringify(base()), env: {} })).resolves.toMatchObject({
      venue: { profile: 'sim' },
    });
  });
});
