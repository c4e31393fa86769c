import { describe, expect, it } from 'vitest';
import { OneShotNonces, type NonceReservations } from '../../../src/engine/nonces/oneShotNonces.js';
import { MAX_NONCE_ANCHOR, type NoncePair } from '../../../src/engine/nonces/noncePair.js';
import type { RestClient } from '../../../src/venue/rest/restClient.js';
import { VenueTransportError } from '../../../src/venue/venueTransportError.js';

const ACCOUNT = '0x00000000000000000000000000000000000000a1';
const ANCHOR = 7n;

function venue(anchor = ANCHOR, bitmap = 0n): { rest: Pick<RestClient, 'nonceState'>; reads: unknown[] } {
  const reads: unknown[] = [];
  const rest = {
    nonceState: async (account: string, options?: { signal?: AbortSignal }) => {
      reads.push({ account, signal: options?.signal });
      return { nonce_anchor: anchor.toString(), current_bitmap_index: 0, bitmap: bitmap.toString() };
    },
  } as unknown as Pick<RestClient, 'nonceState'>;
  return { rest, reads };
}

/** A journal in memory, recording each reservation and what happened in which order. */
function journal(highWater?: NoncePair): NonceReservations & { events: string[]; reserved: NoncePair[] } {
  const events: string[] = [];
  const reserved: NoncePair[] = [];
  return {
    events,
    reserved,
    highWater: () => highWater,
    reserve: (pair, purpose) => {
      reserved.push(pair);
      events.push(`reserve ${pair.anchor}:${pair.bit} for ${purpose}`);
    },
  };
}

const answer = async (pair: NoncePair) => pair;

describe('OneShotNonces', () => {
  it('signs anchor + 1 from bit 0 over a fresh nonce-state read (spec "Nonces"), each pair once', async () => {
    const { rest, reads } = venue();
    const signal = new AbortController().signal;
    const nonces = await OneShotNonces.open({ rest, account: ACCOUNT, signal });
    expect(await nonces.use('a', answer)).toEqual({ anchor: ANCHOR + 1n, bit: 0 });
    expect(await nonces.use('b', answer)).toEqual({ anchor: ANCHOR + 1n, bit: 1 });
    expect(reads).toEqual([{ account: ACCOUNT, signal }]);
  });

  it('resumes above the highest pair the journal reserved, and reserves each pair before it is signed', async () => {
    const { rest } = venue();
    const reservations = journal({ anchor: ANCHOR + 1n, bit: 4 });
    const nonces = await OneShotNonces.open({ rest, account: ACCOUNT, reservations });

    const used = await nonces.use('cancel-all:1', async (pair) => {
      reservations.events.push(`sign ${pair.anchor}:${pair.bit}`);
      return pair;
    });

    expect(used).toEqual({ anchor: ANCHOR + 1n, bit: 5 });
    expect(reservations.events).toEqual([`reserve ${ANCHOR + 1n}:5 for cancel-all:1`, `sign ${ANCHOR + 1n}:5`]);
  });

  it('ignores reservations the venue has moved past', async () => {
    const { rest } = venue();
    const nonces = await OneShotNonces.open({
      rest,
      account: ACCOUNT,
      reservations: journal({ anchor: ANCHOR - 3n, bit: 100 }),
    });
    expect(await nonces.use('a', answer)).toEqual({ anchor: ANCHOR + 1n, bit: 0 });
  });

  it("keeps to this process's nonce slot", async () => {
    const { rest } = venue();
    const nonces = await OneShotNonces.open({ rest, account: ACCOUNT, slots: { slot: 1, slots: 2 } });
    expect(await nonces.use('a', answer)).toEqual({ anchor: ANCHOR + 1n, bit: 1 });
    expect(await nonces.use('b', answer)).toEqual({ anchor: ANCHOR + 1n, bit: 3 });
  });

  it("counts an answered send as landed: the venue's anchor moved, so the next anchor may be signed", async () => {
    // One bit per anchor (slot 0 of 208): every second pair needs the next anchor.
    const { rest } = venue();
    const nonces = await OneShotNonces.open({ rest, account: ACCOUNT, slots: { slot: 0, slots: 208 } });
    expect(await nonces.use('a', answer)).toEqual({ anchor: ANCHOR + 1n, bit: 0 });
    expect(await nonces.use('b', answer)).toEqual({ anchor: ANCHOR + 2n, bit: 0 });
  });

  it('after an unanswered or refused send, fails the next one at once with NONCE_BLOCKED instead of waiting', async () => {
    for (const failure of [
      new VenueTransportError({ kind: 'Timeout', endpoint: '/v1/orders/cancel-all', timeoutMs: 10 }),
      new Error('refused'),
    ]) {
      const { rest } = venue();
      const reservations = journal();
      const nonces = await OneShotNonces.open({ rest, account: ACCOUNT, slots: { slot: 0, slots: 208 }, reservations });
      await expect(nonces.use('a', () => Promise.reject(failure))).rejects.toBe(failure);

      let sent = false;
      const next = nonces.use('b', async (pair) => {
        sent = true;
        return pair;
      });
      await expect(next).rejects.toMatchObject({
        code: 'NONCE_BLOCKED',
        message: expect.stringContaining(`anchor ${ANCHOR + 2n} is beyond the venue's current anchor ${ANCHOR} + 1`),
      });
      expect(sent).toBe(false);
      expect(reservations.reserved).toEqual([{ anchor: ANCHOR + 1n, bit: 0 }]);
    }
  });

  it('at the last anchor, signs the bits its bitmap leaves free, then fails with NONCE_EXHAUSTED', async () => {
    const allButLast = (1n << 207n) - 1n;
    const { rest } = venue(MAX_NONCE_ANCHOR, allButLast);
    const nonces = await OneShotNonces.open({ rest, account: ACCOUNT });
    expect(await nonces.use('a', answer)).toEqual({ anchor: MAX_NONCE_ANCHOR, bit: 207 });
    await expect(nonces.use('b', answer)).rejects.toMatchObject({
      code: 'NONCE_EXHAUSTED',
      hints: [expect.stringMatching(/use a new account/)],
    });
  });
});
