import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { registerSecret } from '../../../../src/core/secretRegistry.js';
import { routeConsoleToLogger } from '../../../../src/runtime/operations/logging/consoleBridge.js';
import { createLogger } from '../../../../src/runtime/operations/logging/createLogger.js';

function loggerToMemory(): { lines: () => Record<string, unknown>[]; logger: ReturnType<typeof createLogger> } {
  let text = '';
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  const logger = createLogger({ level: 'debug', pretty: false, destination });
  const lines = () =>
    text
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { lines, logger };
}

describe('console output while a bot runs', () => {
  it('goes through the redacting logger as JSON lines, and the console is restored after', async () => {
    const key = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
    registerSecret(key);
    const { lines, logger } = loggerToMemory();
    const originalLog = console.log;
    const restore = routeConsoleToLogger(logger);
    console.log('my key is %s and order %s', key, '0xabc123');
    console.warn('careful', { privateKey: key });
    console.error(new Error(`failed with ${key}`).message);
    restore();
    await new Promise((r) => setImmediate(r));
    expect(console.log).toBe(originalLog);
    const logged = lines();
    expect(logged.map((l) => [l['level'], l['component'], l['console']])).toEqual([
      [30, 'console', 'log'],
      [40, 'console', 'warn'],
      [50, 'console', 'error'],
    ]);
    expect(logged[0]?.['msg']).toBe('my key is [redacted] and order 0xabc123');
    expect(JSON.stringify(logged)).not.toContain(key.slice(2));
  });

  it('is shared by the bots of one process: restored when the last one stops', () => {
    const { logger } = loggerToMemory();
    const original = console.info;
    const first = routeConsoleToLogger(logger);
    const second = routeConsoleToLogger(logger);
    first();
    first();
    expect(console.info).not.toBe(original);
    second();
    expect(console.info).toBe(original);
  });

  it('redacts console.dir and what is written straight to stdout and stderr, and restores both streams', async () => {
    const key = '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba';
    registerSecret(key);
    const { lines, logger } = loggerToMemory();
    const written: string[] = [];
    const capture = (chunk: unknown): boolean => {
      written.push(Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk));
      return true;
    };
    const originalDir = console.dir;
    // An own `write` on each stream stands for the terminal: the bridge wraps it, then puts it back.
    process.stdout.write = capture;
    process.stderr.write = capture;
    try {
      const restore = routeConsoleToLogger(logger);
      console.dir({ signerKey: key, note: `key ${key}` });
      process.stdout.write(`stdout ${key}\n`);
      process.stderr.write(Buffer.from(`stderr ${key}\n`));
      restore();
      expect(process.stdout.write).toBe(capture);
      expect(process.stderr.write).toBe(capture);
      expect(console.dir).toBe(originalDir);
    } finally {
      Reflect.deleteProperty(process.stdout, 'write');
      Reflect.deleteProperty(process.stderr, 'write');
    }
    await new Promise((r) => setImmediate(r));
    expect(written).toEqual(['stdout [redacted]\n', 'stderr [redacted]\n']);
    const dir = lines().find((l) => l['console'] === 'dir');
    expect(String(dir?.['msg']).replace(/\s+/g, ' ')).toBe("{ signerKey: '[redacted]', note: 'key [redacted]' }");
  });
});
