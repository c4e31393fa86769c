/**
 * Self and total time per function from a V8 `.cpuprofile` (what `node --cpu-prof` writes), as
 * the tables a flame graph would give: self = samples whose top frame is the function; total =
 * samples with the function anywhere on the stack (counted once per sample, so recursion does not
 * inflate it). Percentages are of the busy time: every sample except `(idle)`.
 */
export interface CpuProfile {
  readonly nodes: readonly {
    readonly id: number;
    readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
    readonly children?: readonly number[];
  }[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
  /** When profiling started, µs on the profiler's clock (the monotonic clock of `process.hrtime`). */
  readonly startTime?: number;
}

export interface ProfileEntry {
  /** `function (file:line)`, file relative to the repository or node_modules. */
  readonly name: string;
  readonly selfMs: number;
  readonly selfPct: number;
  readonly totalMs: number;
  readonly totalPct: number;
}

export interface ProfileSummary {
  readonly sampledMs: number;
  readonly idleMs: number;
  readonly busyMs: number;
  readonly bySelf: readonly ProfileEntry[];
  readonly byTotal: readonly ProfileEntry[];
  /** Self time summed per source file. */
  readonly byFile: readonly { readonly file: string; readonly selfMs: number; readonly selfPct: number }[];
}

export interface SummaryOptions {
  /** Path prefix to strip from file names (the repository root). */
  readonly root?: string;
  /** Skip the samples of the first `fromMs` of the profile (start-up, warm-up). */
  readonly fromMs?: number;
  /**
   * Only the samples taken inside these spans, µs on the profiler's clock (`startTime`'s), in
   * ascending order and apart: e.g. each cycle's way from a frame to its order's write.
   */
  readonly windowsUs?: readonly (readonly [number, number])[];
}

export function summariseCpuProfile(profile: CpuProfile, options: SummaryOptions = {}): ProfileSummary {
  const root = options.root ?? '';
  const fromUs = (options.fromMs ?? 0) * 1000;
  const parent = new Map<number, number>();
  const keyOf = new Map<number, string>();
  const fileOf = new Map<number, string>();
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) parent.set(child, node.id);
    const file = shortFile(node.callFrame.url, root);
    fileOf.set(node.id, file === '' ? '(native or VM)' : file);
    const name = node.callFrame.functionName === '' ? '(anonymous)' : node.callFrame.functionName;
    // tsx's transformed modules report line 0 for everything: a line is shown only when known.
    const line = node.callFrame.lineNumber > 0 ? `:${node.callFrame.lineNumber + 1}` : '';
    keyOf.set(node.id, file === '' ? name : `${name} (${file}${line})`);
  }
  // The distinct functions on each node's stack, built from the root down and memoised.
  const stacks = new Map<number, readonly string[]>();
  const stackOf = (id: number): readonly string[] => {
    const known = stacks.get(id);
    if (known !== undefined) return known;
    const up = parent.get(id);
    const above = up === undefined ? [] : stackOf(up);
    const key = keyOf.get(id) ?? '?';
    const stack = above.includes(key) ? above : [...above, key];
    stacks.set(id, stack);
    return stack;
  };

  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const files = new Map<string, number>();
  let sampled = 0;
  let idle = 0;
  let at = 0;
  const windows = options.windowsUs;
  let window = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i]!;
    const us = profile.timeDeltas[i] ?? 0;
    at += us;
    if (at < fromUs) continue;
    if (windows !== undefined) {
      const takenAt = (profile.startTime ?? 0) + at;
      while (window < windows.length && windows[window]![1] < takenAt) window++;
      if (window === windows.length) break;
      if (takenAt < windows[window]![0]) continue;
    }
    sampled += us;
    const key = keyOf.get(id) ?? '?';
    if (key === '(idle)') {
      idle += us;
      continue;
    }
    self.set(key, (self.get(key) ?? 0) + us);
    const file = fileOf.get(id) ?? '?';
    files.set(file, (files.get(file) ?? 0) + us);
    for (const k of stackOf(id)) total.set(k, (total.get(k) ?? 0) + us);
  }
  const busy = sampled - idle;
  const pct = (us: number) => (busy === 0 ? 0 : Number(((us / busy) * 100).toFixed(1)));
  const ms = (us: number) => Number((us / 1000).toFixed(1));
  const entries = [...total.keys()].map((name) => {
    const s = self.get(name) ?? 0;
    const t = total.get(name) ?? 0;
    return { name, selfMs: ms(s), selfPct: pct(s), totalMs: ms(t), totalPct: pct(t) };
  });
  return {
    sampledMs: ms(sampled),
    idleMs: ms(idle),
    busyMs: ms(busy),
    bySelf: [...entries].sort((a, b) => b.selfMs - a.selfMs),
    byTotal: [...entries].sort((a, b) => b.totalMs - a.totalMs),
    byFile: [...files.entries()]
      .map(([file, us]) => ({ file, selfMs: ms(us), selfPct: pct(us) }))
      .sort((a, b) => b.selfMs - a.selfMs),
  };
}

/** `file:///repo/src/x.ts` → `src/x.ts`; dependencies from `node_modules/<pkg>/...`; node's own as `node:...`. */
function shortFile(url: string, root: string): string {
  if (url === '') return '';
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) return url.slice(modules + 1);
  let path = url.startsWith('file://') ? url.slice('file://'.length) : url;
  if (root !== '' && path.startsWith(root)) path = path.slice(root.length).replace(/^\/+/, '');
  return path;
}

/** The summary's three tables on the console: top functions by self and total time, self time by file. */
export function printProfileTables(summary: ProfileSummary, top: number, nameWidth: number): void {
  const row = (e: ProfileEntry) => ({
    function: e.name.length > nameWidth ? `${e.name.slice(0, nameWidth - 3)}...` : e.name,
    'self ms': e.selfMs,
    'self %': e.selfPct,
    'total ms': e.totalMs,
    'total %': e.totalPct,
  });
  console.log(`\ntop ${top} by self time (% of busy time)`);
  console.table(summary.bySelf.slice(0, top).map(row));
  console.log(`\ntop ${top * 3} by total time`);
  console.table(summary.byTotal.slice(0, top * 3).map(row));
  console.log('\nself time by file');
  console.table(summary.byFile.slice(0, top * 2));
}
