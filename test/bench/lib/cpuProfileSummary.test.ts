import { describe, expect, it } from 'vitest';
import { summariseCpuProfile, type CpuProfile } from '../../../bench/lib/cpuProfileSummary.js';

const frame = (functionName: string, url = '', lineNumber = 0) => ({ functionName, url, lineNumber });

// (root) -> handle -> recover (native); handle -> hash -> hash (recursion); (root) -> (idle)
const profile: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame('(root)'), children: [2, 5] },
    { id: 2, callFrame: frame('handle', 'file:///repo/src/sim/rest/server.ts'), children: [3, 4] },
    { id: 3, callFrame: frame('recover', 'file:///repo/node_modules/secp256k1/lib/index.js', 301) },
    { id: 4, callFrame: frame('hash', 'file:///repo/src/protocol/keccak.ts'), children: [6] },
    { id: 5, callFrame: frame('(idle)') },
    { id: 6, callFrame: frame('hash', 'file:///repo/src/protocol/keccak.ts') },
  ],
  samples: [3, 3, 6, 2, 5, 5],
  timeDeltas: [1000, 1000, 1000, 1000, 1000, 3000],
};

describe('summariseCpuProfile', () => {
  it('splits self and total time per function, as a share of the busy (non-idle) time', () => {
    const summary = summariseCpuProfile(profile, { root: '/repo/' });
    expect(summary).toMatchObject({ sampledMs: 8, idleMs: 4, busyMs: 4 });
    const byName = new Map(summary.bySelf.map((e) => [e.name, e]));
    expect(byName.get('recover (node_modules/secp256k1/lib/index.js:302)')).toMatchObject({
      selfMs: 2,
      selfPct: 50,
      totalMs: 2,
    });
    expect(byName.get('handle (src/sim/rest/server.ts)')).toMatchObject({ selfMs: 1, totalMs: 4, totalPct: 100 });
    // The recursive hash counts once per sample in its total.
    expect(byName.get('hash (src/protocol/keccak.ts)')).toMatchObject({ selfMs: 1, totalMs: 1 });
    expect(summary.bySelf[0]?.name).toBe('recover (node_modules/secp256k1/lib/index.js:302)');
    expect(summary.byFile[0]).toEqual({ file: 'node_modules/secp256k1/lib/index.js', selfMs: 2, selfPct: 50 });
  });

  it('keeps only the samples taken inside the windows, on the profile clock', () => {
    // Samples at 101, 102, 103, 104, 105 and 108 ms after the clock's zero.
    const timed = { ...profile, startTime: 100_000 };
    const summary = summariseCpuProfile(timed, {
      root: '/repo/',
      windowsUs: [
        [101_500, 103_000],
        [104_000, 104_000],
        [107_000, 109_000],
      ],
    });
    // 102 (recover), 103 (hash), 104 (handle), 108 (idle): the first recover and the idle at 105 are outside.
    expect(summary).toMatchObject({ sampledMs: 6, idleMs: 3, busyMs: 3 });
    expect(summary.bySelf.find((e) => e.name.startsWith('recover'))).toMatchObject({ selfMs: 1 });
    expect(summary.bySelf.find((e) => e.name.startsWith('handle'))).toMatchObject({ selfMs: 1, totalMs: 3 });
  });

  it('leaves out the samples before fromMs', () => {
    const summary = summariseCpuProfile(profile, { root: '/repo/', fromMs: 3 });
    expect(summary).toMatchObject({ sampledMs: 6, busyMs: 2 });
    expect(summary.bySelf.find((e) => e.name.startsWith('recover'))).toBeUndefined();
  });
});
