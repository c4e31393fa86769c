import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { ClientFrameRouter } from '../../../src/sim/ws/clientFrameRouter.js';
import type { SimWsContext } from '../../../src/sim/ws/simWsContext.js';
import { SimWsHub } from '../../../src/sim/ws/simWsHub.js';
import { fakeConnection } from './fakeSocket.js';

const SUBSCRIBE = JSON.stringify({ method: 'subscribe', params: { channel: 'oracle', market_ids: [1] } });

/** A context whose market list is a bug: any subscribe then throws inside the frame handler. */
function brokenContext(): SimWsContext {
  return {
    clock: new ManualClock(),
    exchange: {
      markets: () => {
        throw new Error('markets bug');
      },
    },
  } as unknown as SimWsContext;
}

function sent(calls: readonly string[]): unknown[] {
  return calls.filter((c) => c.startsWith('send ')).map((c) => JSON.parse(c.slice('send '.length)));
}

describe('ClientFrameRouter', () => {
  it('a handler that throws costs that frame only: the error is reported and the client gets Internal', () => {
    const errors: unknown[] = [];
    const ctx = brokenContext();
    const router = new ClientFrameRouter(ctx, new SimWsHub(ctx), (error) => errors.push(error));
    const { connection, log } = fakeConnection(1);
    router.route(connection, Buffer.from(SUBSCRIBE), false);
    expect(errors).toEqual([new Error('markets bug')]);
    expect(sent(log.calls)).toEqual([
      { type: 'error', status: 'error', code: 'Internal', message: 'Internal: internal error handling frame' },
    ]);
    expect(connection.isOpen).toBe(true);
  });

  it('refuses binary frames without reading them', () => {
    const errors: unknown[] = [];
    const ctx = brokenContext();
    const router = new ClientFrameRouter(ctx, new SimWsHub(ctx), (error) => errors.push(error));
    const { connection, log } = fakeConnection(1);
    router.route(connection, Buffer.from(SUBSCRIBE), true);
    expect(errors).toEqual([]);
    expect(sent(log.calls)).toEqual([
      {
        type: 'error',
        status: 'error',
        code: 'InvalidArgument',
        message: 'InvalidArgument: malformed frame: binary frames are not accepted',
      },
    ]);
  });
});
