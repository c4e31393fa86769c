import { describe, expect, it } from 'vitest';
import { formatTerminalLine, terminalStream } from '../../../../src/runtime/operations/terminal/terminalLines.js';
import { usesTerminal } from '../../../../src/runtime/operations/terminal/usesTerminal.js';

const at = Date.UTC(2026, 10, 25, 12, 0, 1, 234);

describe('terminal lines', () => {
  it('one line per event: time, level, strategy, message, then key=value; the object the line is about without its prefix', () => {
    const line = JSON.stringify({
      level: 30,
      time: at,
      pid: 1,
      hostname: 'h',
      strategy: 'mm',
      intentId: 'mm-1',
      kind: 'placeLimit',
      marketId: 1,
      orderId: '0xab',
      msg: 'order placed',
    });
    expect(formatTerminalLine(line, { colorize: false })).toBe(
      '12:00:01.234 INFO  [mm] order placed  intentId=mm-1 kind=placeLimit marketId=1 orderId=0xab\n',
    );
    const fill = JSON.stringify({
      level: 30,
      time: at,
      fill: { id: 'f1', price: '65000', size: '0.001', side: 'buy' },
      msg: 'fill',
    });
    expect(formatTerminalLine(fill, { colorize: false })).toBe(
      '12:00:01.234 INFO  fill  id=f1 price=65000 size=0.001 side=buy\n',
    );
  });

  it('names the component when there is no strategy, shows an error by its message, quotes text with spaces', () => {
    const line = JSON.stringify({
      level: 50,
      time: at,
      component: 'engine',
      err: { type: 'Error', message: 'boom happened', stack: 'Error: boom\n at x' },
      reasons: ['a b'],
      msg: 'kill switch tripped',
    });
    expect(formatTerminalLine(line, { colorize: false })).toBe(
      '12:00:01.234 ERROR [engine] kill switch tripped  err="boom happened" reasons=["a b"]\n',
    );
  });

  it('colours only when asked, and passes a line that is not JSON through', () => {
    const line = JSON.stringify({ level: 40, time: at, msg: 'careful' });
    expect(formatTerminalLine(line, { colorize: true })).toBe(
      '\u001b[90m12:00:01.234\u001b[0m \u001b[33mWARN \u001b[0m careful\n',
    );
    expect(formatTerminalLine('plain text', { colorize: false })).toBe('plain text\n');
  });

  it('as a stream, splits what pino writes into one formatted line each', () => {
    const out: string[] = [];
    const stream = terminalStream({ write: (t: string) => out.push(t) }, { colorize: false });
    stream.write(
      `${JSON.stringify({ level: 30, time: at, msg: 'a' })}\n${JSON.stringify({ level: 30, time: at, msg: 'b' })}\n`,
    );
    expect(out).toEqual(['12:00:01.234 INFO  a\n', '12:00:01.234 INFO  b\n']);
  });

  it('is used on a TTY (pretty: auto) or when forced, JSON lines otherwise', () => {
    expect(usesTerminal('auto', { isTTY: true })).toBe(true);
    expect(usesTerminal('auto', {})).toBe(false);
    expect(usesTerminal(true, {})).toBe(true);
    expect(usesTerminal(false, { isTTY: true })).toBe(false);
  });
});

describe('terminal lines for fills and positions', () => {
  it('names the strategy of the object the line is about, drops its prefix, and shortens long hex ids', () => {
    const orderId = `0x${'0'.repeat(14)}1e02b46a21047b95cba7fb45c6a887a0a16e668d58cba2dd5bf`;
    const line = JSON.stringify({
      level: 30,
      time: at,
      fill: { id: '23', marketId: 1, orderId, strategy: 'mm', side: 'buy', price: '64982.1', size: '0.001' },
      msg: 'fill',
    });
    expect(formatTerminalLine(line, { colorize: false })).toBe(
      '12:00:01.234 INFO  [mm] fill  id=23 marketId=1 orderId=0x00000000…2dd5bf side=buy price=64982.1 size=0.001\n',
    );
  });
});
