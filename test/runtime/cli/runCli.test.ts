import { describe, expect, it } from 'vitest';
import { PerpbotError } from '../../../src/core/perpbotError.js';
import { registerSecret } from '../../../src/core/secretRegistry.js';
import { ConfigError } from '../../../src/runtime/config/configError.js';
import type { CommandSpec } from '../../../src/runtime/cli/commandSpec.js';
import { COMMANDS } from '../../../src/runtime/cli/commands/index.js';
import { formatCliError } from '../../../src/runtime/cli/formatCliError.js';
import { runCli } from '../../../src/runtime/cli/runCli.js';
import { memoryIo } from './cliTestSupport.js';

function failing(error: unknown): CommandSpec {
  // The value may be a non-Error on purpose: the CLI must report whatever a command rejects with.
  // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
  return { name: 'boom', summary: 'fails', usage: 'perpbot boom', flags: {}, run: async () => Promise.reject(error) };
}

describe('runCli', () => {
  it('--help lists every command and exits 0; each command has its own --help', async () => {
    const m = memoryIo();
    expect(await runCli(['--help'], m.io)).toBe(0);
    for (const command of COMMANDS) expect(m.stdout()).toContain(`  ${command.name} `);
    for (const command of COMMANDS.filter((c) => c.passThrough !== true)) {
      const one = memoryIo();
      expect(await runCli([command.name, '--help'], one.io)).toBe(0);
      expect(one.stdout()).toMatch(new RegExp(`^Usage: ${command.usage.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\n`));
      expect(one.stdout()).toContain('--verbose');
      expect(one.stderr()).toBe('');
    }
  });

  it("perpbot sim --help is the simulator's help under its own name; a bad flag is one line, exit 2", async () => {
    const help = memoryIo();
    expect(await runCli(['sim', '--help'], help.io)).toBe(0);
    expect(help.stdout()).toMatch(/^Usage: perpbot sim \[options\] {3}\(or: npm run sim -- \[options\]\)\n/);
    expect(help.stdout()).toContain('--block-ms <n>');
    expect(help.stdout()).not.toContain('Usage: npm run sim');
    const bad = memoryIo();
    expect(await runCli(['sim', '--port', 'x'], bad.io)).toBe(2);
    expect(bad.stderr()).toMatch(/^perpbot: sim: --port: invalid value "x".*\(run perpbot sim --help\)\n$/);
  });

  it('an unknown command is one line on stderr with a suggestion, exit code 2', async () => {
    const m = memoryIo();
    expect(await runCli(['stauts'], m.io)).toBe(2);
    expect(m.stderr()).toBe(
      'perpbot: unknown command "stauts" (did you mean status?; commands: start, setup, probe, record, replay, sweep, status, kill-switch, markets, cancel-all, revoke-signer, keys, sim, history, reconcile, chaos, new, check; run perpbot --help)\n',
    );
    expect(m.stdout()).toBe('');
  });

  it('a failing command prints its message and hints on one line and exits 1', async () => {
    const error = new ConfigError(
      [
        { path: 'risk.max_open_orders', problem: 'expected a number' },
        { path: 'venue.profile', problem: 'expected sim, testnet or mainnet' },
      ],
      { hints: ['see config/default.yaml'] },
    );
    const m = memoryIo();
    expect(await runCli(['boom'], m.io, [failing(error)])).toBe(1);
    const lines = m.stderr().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(
      'perpbot: config error at risk.max_open_orders: expected a number; config error at venue.profile: expected sim, testnet or mainnet (see config/default.yaml)',
    );
  });

  it('--verbose adds the stack and the causes', async () => {
    const error = new PerpbotError('outer failure', { code: 'CLI_USAGE', cause: new Error('inner reason') });
    const m = memoryIo();
    expect(await runCli(['boom', '--verbose'], m.io, [failing(error)])).toBe(1);
    expect(m.stderr()).toMatch(/^perpbot: outer failure\n/);
    expect(m.stderr()).toContain('at ');
    expect(m.stderr()).toContain('caused by: Error: inner reason');
  });

  it('a failure after the shutdown signal is reported as an interruption (exit 130)', async () => {
    const m = memoryIo();
    m.abort();
    expect(await runCli(['boom'], m.io, [failing(new Error('aborted'))])).toBe(130);
    expect(m.stderr()).toBe('perpbot: interrupted\n');
  });
});

describe('formatCliError', () => {
  it('keeps secrets out even of foreign error messages', () => {
    const key = `0x${'ab'.repeat(32)}`;
    registerSecret(key); // as the CLI does when it reads a key
    const line = formatCliError(new Error(`invalid private key ${key}`), false);
    expect(line).not.toContain('ab'.repeat(32));
    expect(line).toMatch(
      /^perpbot: invalid private key .* \(unexpected Error; run again with --verbose for the stack\)\n$/,
    );
  });

  it('points an unreachable venue at the configured URL', () => {
    const error = new PerpbotError('GET /v1/markets could not reach the venue (ECONNREFUSED); no definite answer', {
      code: 'VENUE_CONNECTION_FAILED',
      hints: ['the request may have executed'],
    });
    expect(formatCliError(error, false)).toBe(
      'perpbot: GET /v1/markets could not reach the venue (ECONNREFUSED); no definite answer (check venue.rest_url in the config or PERPBOT_REST_URL, and that the venue is running)\n',
    );
  });
});
