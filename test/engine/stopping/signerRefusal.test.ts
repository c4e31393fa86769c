import { describe, expect, it } from 'vitest';
import { SignerRefusal } from '../../../src/engine/stopping/signerRefusal.js';
import type { StopCause } from '../../../src/engine/stopping/tradingStoppedError.js';

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

/** A venue whose next signing read says `changed`, or fails; each read counted. */
function setup(next: { changed: boolean } | Error) {
  let reads = 0;
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const stops: { cause: StopCause; reason: string; error: unknown }[] = [];
  const refusal = new SignerRefusal({
    venue: {
      refreshSigning: async () => {
        reads++;
        await gate;
        if (next instanceof Error) throw next;
        return { signing: {} as never, changed: next.changed };
      },
    },
    tradingStop: { stop: (cause, reason, error) => stops.push({ cause, reason, error }) },
    log: quiet,
  });
  return { refusal, stops, reads: () => reads, release };
}

describe('SignerRefusal', () => {
  it('refuses at once, reads the system config once for every refusal in flight, and resumes after a redeploy', async () => {
    const { refusal, stops, reads, release } = setup({ changed: true });
    expect(refusal.refused).toBe(false);
    const first = refusal.onRefused(new Error('SignerNotAuthorized'));
    const second = refusal.onRefused(new Error('SignerNotAuthorized'));
    expect(refusal.refused).toBe(true);
    expect(refusal.reason).toMatch(/SignerNotAuthorized/);
    expect(second).toBe(first);

    release();
    await first;
    expect(reads()).toBe(1);
    expect(refusal.refused).toBe(false);
    expect(refusal.reason).toBeUndefined();
    expect(stops).toEqual([]);
  });

  it('stops trading for good when the domain and router are unchanged: the signer itself is refused', async () => {
    const { refusal, stops, release } = setup({ changed: false });
    const done = refusal.onRefused(new Error('SignerNotAuthorized'));
    release();
    await done;
    expect(refusal.refused).toBe(true);
    expect(stops).toEqual([
      { cause: 'signer_not_authorized', reason: expect.stringMatching(/system config is unchanged/), error: undefined },
    ]);
  });

  it('stops trading when the system config cannot be read again, with the read failure as cause', async () => {
    const failure = new Error('503');
    const { refusal, stops, release } = setup(failure);
    const done = refusal.onRefused(new Error('SignerNotAuthorized'));
    release();
    await done;
    expect(stops).toEqual([
      { cause: 'signer_not_authorized', reason: expect.stringMatching(/could not be read again/), error: failure },
    ]);
  });
});
