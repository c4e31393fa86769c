import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/runtime/cli/runCli.js';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import { memoryIo, testKeys } from '../runtime/cli/cliTestSupport.js';
import { journalBotConfig, until } from './support/journalBot.js';
import { startPerpbotIn } from './support/spawnPerpbot.js';

/**
 * A strategy that prints the signer key with console.log, console.dir, process.stdout.write and
 * process.stderr.write: a spawned bot's output holds none of them in clear.
 */
describe("a strategy's prints while a bot runs (perpbot start spawned)", () => {
  let sim: RunningSim;
  let dir: string;
  beforeAll(async () => {
    sim = await startSim({ port: 0, blockMs: 0, registrationLagMs: 0 });
    dir = mkdtempSync(join(tmpdir(), 'perpbot-console-'));
    mkdirSync(join(dir, 'strategies'));
    const target = new URL('./support/printingStrategy.ts', import.meta.url).pathname;
    writeFileSync(join(dir, 'strategies', 'printing.ts'), `export { default } from ${JSON.stringify(target)};\n`);
  });
  afterAll(async () => {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('redacts the key printed by console.dir, process.stdout.write and process.stderr.write too', async () => {
    const keys = testKeys();
    const configPath = join(dir, 'perpbot.yaml');
    writeFileSync(
      configPath,
      journalBotConfig(dir)
        .replace('module: strategies/journalProbe.ts', 'module: strategies/printing.ts')
        .replace(/params: \{ bids: .*\}/, 'params: {}')
        .replace('http://127.0.0.1:1', sim.restUrl)
        .replace('ws://127.0.0.1:1/ws', sim.wsUrl),
    );
    expect(await runCli(['setup', '--config', configPath], memoryIo({ env: keys.env, cwd: dir }).io)).toBe(0);
    const bot = startPerpbotIn(['start', '--config', configPath], dir, keys.env);
    try {
      await until(() => bot.output().includes('"msg":"printed"'), 60_000).catch((error: unknown) => {
        throw new Error(`the strategy did not print: ${bot.output().slice(-2000)}`, { cause: error });
      });
    } finally {
      bot.child.kill('SIGTERM');
      await bot.exited;
    }
    const output = bot.output();
    const key = keys.env['PERPBOT_SIGNER_KEY'] ?? '';
    expect(key).toMatch(/^0x[0-9a-f]{64}$/);
    for (const where of ['log: ', "dir: '", 'stdout: ', 'stderr: ']) expect(output).toContain(`${where}[redacted]`);
    expect(output.toLowerCase()).not.toContain(key.slice(2, 40).toLowerCase());
  }, 90_000);
});
