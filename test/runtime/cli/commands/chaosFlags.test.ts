import { describe, expect, it } from 'vitest';
import { CHAOS_DEFAULT_FAULTS } from '../../../../src/runtime/diagnostics/chaos/chaosFaults.js';
import { chaosOptionsFromFlags } from '../../../../src/runtime/cli/commands/chaosFlags.js';
import { CliUsageError } from '../../../../src/runtime/cli/cliUsageError.js';

const at = (path: string): string => `/work/${path}`;

describe('chaosOptionsFromFlags', () => {
  it('defaults: 10 minutes, the chaos faults, one crash, reconnects under 2 s, nothing written', () => {
    expect(chaosOptionsFromFlags({}, at)).toEqual({
      durationMs: 600_000,
      crash: true,
      faults: CHAOS_DEFAULT_FAULTS,
      maxReconnectMs: 2_000,
    });
  });

  it('takes --max-reconnect-ms as whole milliseconds and refuses anything else with the value', () => {
    expect(chaosOptionsFromFlags({ 'max-reconnect-ms': '1500' }, at).maxReconnectMs).toBe(1_500);
    expect(() => chaosOptionsFromFlags({ 'max-reconnect-ms': '1.5s' }, at)).toThrow(
      '--max-reconnect-ms: invalid value "1.5s"; expected a whole number of milliseconds from 1 to 3600000, such as 2000',
    );
  });

  it('takes fractional minutes to the millisecond, or whole seconds, and resolves paths', () => {
    expect(chaosOptionsFromFlags({ minutes: '0.5' }, at).durationMs).toBe(30_000);
    expect(chaosOptionsFromFlags({ minutes: '1.0005' }, at).durationMs).toBe(60_060);
    expect(chaosOptionsFromFlags({ seconds: '45', json: 'r.json', dir: 'out', 'no-crash': true }, at)).toMatchObject({
      durationMs: 45_000,
      crash: false,
      jsonPath: '/work/r.json',
      dir: '/work/out',
    });
  });

  it('parses the fault flags as perpbot sim does, over the chaos defaults', () => {
    const options = chaosOptionsFromFlags(
      { 'error-rate': '0.2', 'ws-drop-every-ms': '0', seed: '7', 'block-ms': '100', 'registration-lag-ms': '500' },
      at,
    );
    expect(options.faults).toEqual({ ...CHAOS_DEFAULT_FAULTS, errorRate: 0.2, wsDropEveryMs: 0 });
    expect(options).toMatchObject({ seed: 7, blockMs: 100, registrationLagMs: 500 });
  });

  it('refuses bad values as usage errors naming the flag', () => {
    for (const [flags, text] of [
      [{ minutes: '0' }, '--minutes'],
      [{ minutes: '1e3' }, '--minutes'],
      [{ seconds: '1.5' }, '--seconds'],
      [{ minutes: '1', seconds: '5' }, 'not both'],
      [{ 'error-rate': '2' }, '--error-rate'],
      [{ 'ws-stall-for-ms': '0' }, 'wsStallForMs'],
    ] as const) {
      expect(() => chaosOptionsFromFlags(flags, at), JSON.stringify(flags)).toThrow(CliUsageError);
      expect(() => chaosOptionsFromFlags(flags, at)).toThrow(text);
    }
  });
});
