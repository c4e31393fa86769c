import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NonceAllocator, type NonceFate } from '../../../src/engine/nonces/nonceAllocator.js';
import { MAX_NONCE_BIT, noncePairKey, type NoncePair, type NonceState } from '../../../src/engine/nonces/noncePair.js';

const ACCOUNT = '0x00000000000000000000000000000000000000a1';

/** The venue's nonce rules, as the spec states them and the simulator implements them. */
class VenueNonces {
  current: bigint;
  /** Consumed bits per anchor. */
  private readonly used = new Map<bigint, bigint>();

  constructor(anchor: bigint) {
    this.current = anchor;
  }

  submit(pair: NoncePair): 'landed' | 'InvalidNonceIndex' | 'InvalidNonceAnchor' | 'NonceUsed' {
    if (pair.bit > MAX_NONCE_BIT) return 'InvalidNonceIndex';
    if (pair.anchor !== this.current && pair.anchor !== this.current + 1n) return 'InvalidNonceAnchor';
    const bits = this.used.get(pair.anchor) ?? 0n;
    const mask = 1n << BigInt(pair.bit);
    if ((bits & mask) !== 0n) return 'NonceUsed';
    this.used.set(pair.anchor, bits | mask);
    this.current = pair.anchor;
    return 'landed';
  }

  read(): NonceState {
    return { anchor: this.current, bitmap: this.used.get(this.current) ?? 0n };
  }
}

function drain(allocator: NonceAllocator, count: number): NoncePair[] {
  const pairs: NoncePair[] = [];
  for (let i = 0; i < count; i++) {
    const pair = allocator.tryAllocate();
    if (pair === undefined) break;
    pairs.push(pair);
  }
  return pairs;
}

describe('NonceAllocator', () => {
  it('starts at current + 1 from bit 0 and hands out bits in order without round trips', () => {
    const allocator = new NonceAllocator(ACCOUNT, { anchor: 41n, bitmap: 0b111n });
    expect(drain(allocator, 3)).toEqual([
      { anchor: 42n, bit: 0 },
      { anchor: 42n, bit: 1 },
      { anchor: 42n, bit: 2 },
    ]);
  });

  it('does not roll past bit 207 until a permit of the anchor landed and none is in flight', () => {
    const allocator = new NonceAllocator(ACCOUNT, { anchor: 9n, bitmap: 0n });
    const first = drain(allocator, 300);
    expect(first).toHaveLength(208);
    expect(first.at(-1)).toEqual({ anchor: 10n, bit: 207 });
    expect(allocator.status().blockedBy).toMatch(/beyond the venue's current anchor 9/);

    allocator.report(first[0] as NoncePair, 'landed');
    expect(allocator.tryAllocate()).toBeUndefined();
    expect(allocator.status().blockedBy).toMatch(/anchor 10 is still in flight/);

    for (const pair of first.slice(1, -1)) allocator.report(pair, 'refused');
    expect(allocator.tryAllocate()).toBeUndefined();
    allocator.report(first.at(-1) as NoncePair, 'unknown');
    expect(allocator.tryAllocate()).toEqual({ anchor: 11n, bit: 0 });
  });

  it('makes allocate() wait for the roll and resolves waiters in order', async () => {
    const allocator = new NonceAllocator(ACCOUNT, { anchor: 0n, bitmap: 0n });
    const pairs = drain(allocator, 208);
    const a = allocator.allocate();
    const b = allocator.allocate();
    expect(allocator.status().waiting).toBe(2);
    expect(allocator.tryAllocate()).toBeUndefined(); // no queue jumping
    for (const pair of pairs) allocator.report(pair, 'landed');
    await expect(a).resolves.toEqual({ anchor: 2n, bit: 0 });
    await expect(b).resolves.toEqual({ anchor: 2n, bit: 1 });
  });

  it('serves a waiting allocate() once a resync shows the venue reached the anchor', async () => {
    const venue = new VenueNonces(3n);
    const allocator = new NonceAllocator(ACCOUNT, venue.read());
    const pairs = drain(allocator, 208);
    for (const pair of pairs) {
      expect(venue.submit(pair)).toBe('landed');
      allocator.report(pair, 'unknown'); // answers lost: no evidence that the venue moved
    }
    const waiting = allocator.allocate();
    expect(allocator.status().waiting).toBe(1);
    allocator.resync(venue.read());
    await expect(waiting).resolves.toEqual({ anchor: 5n, bit: 0 });
  });

  it('lets a waiting allocate() be cancelled with an AbortSignal', async () => {
    const allocator = new NonceAllocator(ACCOUNT, { anchor: 0n, bitmap: 0n });
    const pairs = drain(allocator, 208);
    const controller = new AbortController();
    const waiting = allocator.allocate(controller.signal);
    controller.abort(new Error('shutting down'));
    await expect(waiting).rejects.toThrow('shutting down');
    expect(allocator.status().waiting).toBe(0);
    for (const pair of pairs) allocator.report(pair, 'landed');
    expect(allocator.tryAllocate()).toEqual({ anchor: 2n, bit: 0 }); // the cancelled waiter took nothing
    await expect(allocator.allocate(AbortSignal.abort(new Error('already')))).rejects.toThrow('already');
  });

  it('rejects with an Error also when an abort reason is not one', async () => {
    const allocator = new NonceAllocator(ACCOUNT, { anchor: 0n, bitmap: 0n });
    drain(allocator, 208);
    const controller = new AbortController();
    const waiting = allocator.allocate(controller.signal);
    controller.abort('stop');
    await expect(waiting).rejects.toMatchObject({ code: 'ABORTED', message: 'stop', cause: 'stop' });
    await expect(allocator.allocate(AbortSignal.abort('gone'))).rejects.toMatchObject({
      code: 'ABORTED',
      cause: 'gone',
    });
  });

  it.each([
    [{ slot: 0, slots: 2 }, [0, 2, 4]],
    [{ slot: 1, slots: 2 }, [1, 3, 5]],
    [{ slot: 2, slots: 3 }, [2, 5, 8]],
  ])('with slot %o uses only its bits', (slots, bits) => {
    const allocator = new NonceAllocator(ACCOUNT, { anchor: 5n, bitmap: 0n }, { slots });
    expect(drain(allocator, 3).map((p) => p.bit)).toEqual(bits);
  });

  it('never reissues a pair after a resync, even if the venue did not move', () => {
    const venue = new VenueNonces(100n);
    const allocator = new NonceAllocator(ACCOUNT, venue.read());
    const before = drain(allocator, 5);
    expect(venue.submit(before[0] as NoncePair)).toBe('landed');
    allocator.report(before[0] as NoncePair, 'landed');
    allocator.resync(venue.read());
    expect(allocator.tryAllocate()).toEqual({ anchor: 101n, bit: 5 });
  });

  it('after another process moved the anchor, continues in the current anchor at a bit its bitmap shows free', () => {
    const venue = new VenueNonces(7n);
    const allocator = new NonceAllocator(ACCOUNT, venue.read());
    const mine = drain(allocator, 2); // anchor 8
    // Someone else signs 8 and then 9 (bits 0 and 1 of 9).
    venue.submit({ anchor: 8n, bit: 100 });
    venue.submit({ anchor: 9n, bit: 0 });
    venue.submit({ anchor: 9n, bit: 1 });
    expect(venue.submit(mine[0] as NoncePair)).toBe('InvalidNonceAnchor');
    allocator.report(mine[0] as NoncePair, 'refused');
    allocator.resync(venue.read());
    const next = allocator.tryAllocate();
    expect(next).toEqual({ anchor: 9n, bit: 2 });
    expect(venue.submit(next as NoncePair)).toBe('landed');
  });

  it('continues after a restored high-water pair so a restart never reuses one', () => {
    const allocator = new NonceAllocator(
      ACCOUNT,
      { anchor: 20n, bitmap: 0n },
      { restoredHighWater: { anchor: 21n, bit: 17 } },
    );
    expect(allocator.tryAllocate()).toEqual({ anchor: 21n, bit: 18 });
    expect(allocator.highWater()).toEqual({ anchor: 21n, bit: 18 });
    const stale = new NonceAllocator(
      ACCOUNT,
      { anchor: 30n, bitmap: 0n },
      { restoredHighWater: { anchor: 21n, bit: 17 } },
    );
    expect(stale.tryAllocate()).toEqual({ anchor: 31n, bit: 0 });
  });

  it("ignores a restored high-water pair beyond current + 1 (a dry run's), which no live run could have signed", () => {
    const allocator = new NonceAllocator(
      ACCOUNT,
      { anchor: 20n, bitmap: 0n },
      { restoredHighWater: { anchor: 25n, bit: 3 } },
    );
    expect(allocator.tryAllocate()).toEqual({ anchor: 21n, bit: 0 });
  });

  it('at the last uint48 anchor, uses its free bits and never hands out anchor 2^48', () => {
    const last = (1n << 48n) - 1n;
    const allocator = new NonceAllocator(ACCOUNT, { anchor: last, bitmap: 0b101n });
    const pairs = drain(allocator, 300);
    expect(pairs[0]).toEqual({ anchor: last, bit: 1 });
    expect(pairs).toHaveLength(206);
    for (const pair of pairs) allocator.report(pair, 'landed');
    expect(allocator.tryAllocate()).toBeUndefined();
  });

  it('refuses reports of pairs it never handed out and bad slot configs', () => {
    const allocator = new NonceAllocator(ACCOUNT, { anchor: 1n, bitmap: 0n });
    expect(() => allocator.report({ anchor: 2n, bit: 0 }, 'landed')).toThrow(/never handed out/);
    expect(() => new NonceAllocator(ACCOUNT, { anchor: 1n, bitmap: 0n }, { slots: { slot: 2, slots: 2 } })).toThrow(
      /nonces.slot/,
    );
    expect(() => new NonceAllocator(ACCOUNT, { anchor: 1n, bitmap: 0n }, { slots: { slot: 0, slots: 0 } })).toThrow(
      /nonces.slots/,
    );
  });

  it('keeps going across many anchors when permits land', () => {
    const venue = new VenueNonces(0n);
    const allocator = new NonceAllocator(ACCOUNT, venue.read());
    for (let i = 0; i < 208 * 5; i++) {
      const pair = allocator.tryAllocate();
      if (pair === undefined) throw new Error(`stalled after ${i} pairs: ${allocator.status().blockedBy}`);
      expect(venue.submit(pair)).toBe('landed');
      allocator.report(pair, 'landed');
    }
    expect(venue.current).toBe(5n);
  });
});

type Step =
  | { readonly kind: 'allocate'; readonly process: number }
  | {
      readonly kind: 'settle';
      readonly index: number;
      readonly how: 'submit' | 'drop' | 'unknown';
      readonly venueTookIt: boolean;
    }
  | { readonly kind: 'resync'; readonly process: number }
  /** The process restarts from its persisted high-water pair; its in-flight pairs are lost. */
  | { readonly kind: 'restart'; readonly process: number; readonly venueTookThem: boolean };

const step = (processes: number): fc.Arbitrary<Step> =>
  fc.oneof(
    { weight: 5, arbitrary: fc.record({ kind: fc.constant('allocate' as const), process: fc.nat(processes - 1) }) },
    {
      weight: 4,
      arbitrary: fc.record({
        kind: fc.constant('settle' as const),
        index: fc.nat(1000),
        how: fc.constantFrom('submit' as const, 'drop' as const, 'unknown' as const),
        venueTookIt: fc.boolean(),
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('resync' as const), process: fc.nat(processes - 1) }) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('restart' as const),
        process: fc.nat(processes - 1),
        venueTookThem: fc.boolean(),
      }),
    },
  );

/**
 * Runs random interleavings against the venue model. Checks at every allocation: never a pair
 * twice (across processes and restarts too), never a bit above 207 or outside the slot, never an anchor beyond
 * the venue's current + 1. With one process, every submitted pair also lands.
 */
function runScenario(processes: number, start: bigint, steps: readonly Step[]): void {
  const venue = new VenueNonces(start);
  const allocators = Array.from(
    { length: processes },
    (_, slot) => new NonceAllocator(ACCOUNT, venue.read(), { slots: { slot, slots: processes } }),
  );
  const restart = (process: number, venueTookThem: boolean): void => {
    for (let i = pending.length - 1; i >= 0; i--) {
      const entry = pending[i];
      if (entry?.process !== process) continue;
      if (venueTookThem) venue.submit(entry.pair);
      pending.splice(i, 1);
    }
    const old = allocators[process];
    const restoredHighWater = old?.highWater();
    allocators[process] = new NonceAllocator(ACCOUNT, venue.read(), {
      slots: { slot: process, slots: processes },
      ...(restoredHighWater === undefined ? {} : { restoredHighWater }),
    });
  };
  const seen = new Set<string>();
  const pending: { process: number; pair: NoncePair }[] = [];
  const settle = (process: number, pair: NoncePair, fate: NonceFate): void => allocators[process]?.report(pair, fate);

  for (const s of steps) {
    if (s.kind === 'allocate') {
      const pair = allocators[s.process]?.tryAllocate();
      if (pair === undefined) continue;
      const key = noncePairKey(pair);
      // Plain checks: expect() per step would dominate the run time.
      if (seen.has(key)) throw new Error(`pair ${key} handed out twice`);
      seen.add(key);
      if (!Number.isInteger(pair.bit) || pair.bit < 0 || pair.bit > MAX_NONCE_BIT)
        throw new Error(`bit out of range: ${key}`);
      if (pair.bit % processes !== s.process) throw new Error(`pair ${key} outside slot ${s.process}/${processes}`);
      if (pair.anchor > venue.current + 1n)
        throw new Error(`pair ${key} beyond the venue's anchor ${venue.current} + 1`);
      pending.push({ process: s.process, pair });
    } else if (s.kind === 'settle') {
      if (pending.length === 0) continue;
      const [{ process, pair }] = pending.splice(s.index % pending.length, 1) as [{ process: number; pair: NoncePair }];
      if (s.how === 'drop') {
        settle(process, pair, 'refused');
      } else if (s.how === 'unknown') {
        if (s.venueTookIt) venue.submit(pair);
        settle(process, pair, 'unknown');
      } else {
        const result = venue.submit(pair);
        if (result === 'NonceUsed' || result === 'InvalidNonceIndex')
          throw new Error(`${noncePairKey(pair)}: ${result}`);
        if (processes === 1 && result !== 'landed')
          throw new Error(`${noncePairKey(pair)}: ${result} with a single process`);
        if (result === 'landed') settle(process, pair, 'landed');
        else {
          settle(process, pair, 'refused');
          allocators[process]?.resync(venue.read());
        }
      }
    } else if (s.kind === 'restart') {
      restart(s.process, s.venueTookThem);
    } else {
      allocators[s.process]?.resync(venue.read());
    }
  }
}

describe('NonceAllocator properties', () => {
  it('one process: no duplicate, bit <= 207, anchor <= current + 1, every submitted pair lands', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.bigInt({ min: 0n, max: 1n << 40n }), fc.bigInt({ min: (1n << 48n) - 8n, max: (1n << 48n) - 1n })),
        fc.array(step(1), { minLength: 500, maxLength: 1000 }),
        (start, steps) => {
          runScenario(1, start, steps);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('processes sharing an account by slots never collide', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 4 }),
        fc.array(step(4), { minLength: 300, maxLength: 1000 }),
        (processes, steps) => {
          runScenario(
            processes,
            1000n,
            steps.map((s) => (s.kind === 'settle' ? s : { ...s, process: s.process % processes })),
          );
        },
      ),
      { numRuns: 40 },
    );
  });

  it('rolls through anchors in bursts of in-flight pairs, at landing rates down to none', () => {
    const burst = fc.record({
      size: fc.integer({ min: 1, max: 40 }),
      dice: fc.array(fc.nat(99), { minLength: 40, maxLength: 40 }),
      order: fc.array(fc.nat(100), { minLength: 40, maxLength: 40 }),
    });
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }),
        fc.constantFrom(0, 2, 20, 80),
        fc.array(burst, { minLength: 20, maxLength: 50 }),
        (processes, landingPercent, bursts) => {
          const steps: Step[] = bursts.flatMap(({ size, dice, order }): Step[] => [
            ...Array.from({ length: size * processes }, (_, i): Step => ({ kind: 'allocate', process: i % processes })),
            ...Array.from({ length: size * processes }, (_, i): Step => {
              const roll = dice[i % 40] ?? 0;
              const how = roll < landingPercent ? 'submit' : roll % 4 === 0 ? 'unknown' : 'drop';
              return { kind: 'settle', index: order[i % 40] ?? 0, how, venueTookIt: false };
            }),
          ]);
          runScenario(processes, 5n, steps);
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('NonceAllocator in-flight bookkeeping', () => {
  it('counts the pairs in flight across anchors, once each, whatever the order of reports', () => {
    const allocator = new NonceAllocator(ACCOUNT, { anchor: 9n, bitmap: 0n });
    const first = Array.from({ length: MAX_NONCE_BIT + 1 }, () => allocator.tryAllocate()!);
    expect(allocator.status().inFlight).toBe(MAX_NONCE_BIT + 1);
    // Anchor 10 is used up and its pairs are in flight: anchor 11 must wait for all of them.
    expect(allocator.tryAllocate()).toBeUndefined();
    allocator.report(first[0]!, 'landed');
    allocator.report(first[0]!, 'landed');
    expect(allocator.status().inFlight).toBe(MAX_NONCE_BIT);
    for (const pair of first.slice(1, -1)) allocator.report(pair, 'refused');
    expect(allocator.tryAllocate()).toBeUndefined();
    expect(allocator.status().blockedBy).toMatch(/anchor 10 is still in flight/);
    allocator.report(first[first.length - 1]!, 'unknown');
    expect(allocator.status().inFlight).toBe(0);
    const next = allocator.tryAllocate();
    expect(next?.anchor).toBe(11n);
    expect(allocator.status().inFlight).toBe(1);
  });
});
