import { describe, expect, it } from 'vitest';
import { processExits } from '../../../../../src/runtime/diagnostics/chaos/audit/processExits.js';

describe('processExits', () => {
  it('holds for the planned SIGKILL and a final stop that exits 0', () => {
    const result = processExits([
      { run: 1, startedAtMs: 0, endedAtMs: 30_000, exit: { code: null, signal: 'SIGKILL', planned: 'crash' } },
      { run: 2, startedAtMs: 30_000, endedAtMs: 60_000, exit: { code: 0, signal: null, planned: 'stop' } },
    ]);
    expect(result.ok).toBe(true);
    expect(result.measured).toBe('0 of 2 exits');
  });

  it('fails on an exit of its own, a stop with another code and a stop that had to be forced', () => {
    const result = processExits([
      { run: 1, startedAtMs: 0, endedAtMs: 10_000, exit: { code: 1, signal: null } },
      { run: 2, startedAtMs: 11_000, endedAtMs: 60_000, exit: { code: 1, signal: null, planned: 'stop' } },
      {
        run: 3,
        startedAtMs: 61_000,
        endedAtMs: 90_000,
        exit: { code: null, signal: 'SIGKILL', planned: 'stop', forced: true },
      },
    ]);
    expect(result.ok).toBe(false);
    expect(result.measured).toBe('3 of 3 exits');
    expect(result.detail).toBe(
      'run 1: by itself, exit code 1; run 2: on the final stop, exit code 1; run 3: stop did not finish in time, killed by SIGKILL',
    );
  });

  it('fails when the planned crash did not end the process by SIGKILL', () => {
    expect(
      processExits([{ run: 1, startedAtMs: 0, endedAtMs: 1, exit: { code: 0, signal: null, planned: 'crash' } }]).ok,
    ).toBe(false);
  });
});
