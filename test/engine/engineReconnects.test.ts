import { NEVER, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { dryRunSender } from '../../src/engine/sending/actionSender.js';
import { Engine } from '../../src/engine/engine.js';
import { withEngineDefaults } from '../../src/engine/config/engineConfig.js';
import { SPEC_SELECTORS } from '../../src/protocol/selectors.js';
import type { RestClient } from '../../src/venue/rest/restClient.js';

const ACCOUNT = '0x00000000000000000000000000000000000000a1';
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

describe('engine.reconnects$', () => {
  it('emits once per return of the connection, with when the engine lost sight of the venue', async () => {
    const clock = new ManualClock(1_000);
    const engine = new Engine({
      account: ACCOUNT,
      signer: { address: ACCOUNT, signDigest: () => Promise.reject(new Error('no signing here')) } as never,
      // Its own reconciliation fails (no venue here) and waits to retry on the manual clock.
      rest: {} as RestClient,
      sender: dryRunSender({ info() {} }),
      config: withEngineDefaults(),
      selectors: SPEC_SELECTORS,
      clock,
      log: quiet,
    });
    const connection = new Subject<{ status: string }>();
    engine.attach({ orders: NEVER, positions: NEVER, fills: NEVER, account: NEVER, oracle: NEVER, connection });
    const seen: number[] = [];
    engine.reconnects$.subscribe((r) => seen.push(r.lostAtMs));

    connection.next({ status: 'authenticated' });
    await clock.advance(500);
    connection.next({ status: 'reconnecting' });
    await clock.advance(2_000);
    connection.next({ status: 'authenticating' });
    connection.next({ status: 'authenticated' });
    // The first authentication is no reconnect; the loss began at 1500.
    expect(seen).toEqual([1_500]);
    await engine.stop();
  });
});
