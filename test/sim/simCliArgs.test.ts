import { describe, expect, it } from 'vitest';
import { RISE_SELECTORS } from '../../src/protocol/selectors.js';
import { parseSimCliArgs } from '../../src/sim/simCliArgs.js';
import { resolveSimOptions } from '../../src/sim/simOptions.js';

describe('parseSimCliArgs', () => {
  it('maps every flag onto startSim options', () => {
    const command = parseSimCliArgs([
      '--port',
      '8600',
      '--seed',
      '7',
      '--block-ms',
      '50',
      '--registration-lag-ms',
      '10',
      '--latency-ms',
      '5',
      '--jitter-ms',
      '3',
      '--error-rate',
      '0.25',
      '--error-after-share',
      '1',
      '--selectors',
      'rise',
      '--chain-id',
      '42',
      '--host',
      '0.0.0.0',
      '--rest-requests-per-10s',
      '0',
      '--ws-drop-every-ms',
      '30000',
      '--ws-stall-every-ms',
      '20000',
      '--ws-stall-for-ms',
      '1500',
      '--wire-departure',
      'orderbook-wei',
      '--deterministic-ids',
      '--tpsl-lag-ms',
      '1500',
      '--admin',
      '--refuse-tpsl',
    ]);
    expect(command.help).toBe(false);
    if (command.help) return;
    const options = resolveSimOptions(command.options);
    expect(options).toMatchObject({
      port: 8600,
      seed: 7,
      blockMs: 50,
      registrationLagMs: 10,
      chainId: 42,
      host: '0.0.0.0',
      restRequestsPer10s: 0,
      deterministicIds: true,
      tpslLagMs: 1500,
      admin: true,
      refuseTpsl: true,
    });
    expect(options.faults).toEqual({
      latencyMs: 5,
      jitterMs: 3,
      errorRate: 0.25,
      errorAfterActionShare: 1,
      wsDropEveryMs: 30_000,
      wsStallEveryMs: 20_000,
      wsStallForMs: 1_500,
    });
    expect(options.selectors).toBe(RISE_SELECTORS);
    expect(options.wireDepartures).toEqual(['orderbook-wei']);
  });

  it('gives defaults with no flags and help with -h', () => {
    const command = parseSimCliArgs([]);
    if (command.help) throw new Error('expected options');
    expect(resolveSimOptions(command.options)).toMatchObject({
      port: 0,
      seed: 1,
      blockMs: 250,
      registrationLagMs: 2000,
      wireDepartures: [],
      // Ids unique across runs unless asked for fixed ones.
      deterministicIds: false,
    });
    // Every fault is off by default, the WebSocket ones included.
    expect(resolveSimOptions(command.options).faults).toMatchObject({
      errorRate: 0,
      latencyMs: 0,
      wsDropEveryMs: 0,
      wsStallEveryMs: 0,
    });
    expect(parseSimCliArgs(['-h'])).toEqual({ help: true });
  });

  it('refuses unknown flags, bad numbers and rates above 1', () => {
    expect(() => parseSimCliArgs(['--bogus'])).toThrow(/bogus/);
    expect(() => parseSimCliArgs(['--port', 'abc'])).toThrow(/--port/);
    expect(() => parseSimCliArgs(['--error-rate', '1.5'])).toThrow(/--error-rate/);
    expect(() => parseSimCliArgs(['--ws-drop-every-ms', '-5'])).toThrow(/--ws-drop-every-ms/);
    expect(() => resolveSimOptions({ faults: { wsStallForMs: 0 } })).toThrow(/wsStallForMs/);
    expect(() => parseSimCliArgs(['--selectors', 'other'])).toThrow(/spec or rise/);
    expect(() => resolveSimOptions({ port: 70_000 })).toThrow(/port/);
    expect(() => parseSimCliArgs(['--wire-departure', 'orderbook-float'])).toThrow(/--wire-departure.*orderbook-wei/);
  });

  it('leaves the test controls off and the TP/SL lag at 500 ms unless asked, and refuses a bad lag', () => {
    const command = parseSimCliArgs([]);
    if (command.help) throw new Error('help');
    expect(resolveSimOptions(command.options)).toMatchObject({ admin: false, tpslLagMs: 500, refuseTpsl: false });
    expect(() => parseSimCliArgs(['--tpsl-lag-ms', '-1'])).toThrow(/--tpsl-lag-ms/);
    expect(() => parseSimCliArgs(['--admin=yes'])).toThrow();
  });
});
