import { firstValueFrom, NEVER } from 'rxjs';
import type { Engine } from '../../../src/engine/engine.js';
import type { RunningSim } from '../../../src/sim/startSim.js';
import { VenueWsClient } from '../../../src/venue/ws/venueWsClient.js';
import { wsAuthenticatorFromRest } from '../../../src/venue/ws/wsAuthenticatorFromRest.js';
import type { SimAccount } from './simAccount.js';

/**
 * The account's WebSocket client for the engine's private feeds. No blocks are mined in these
 * tests, so no oracle messages: the silence watchdog stays off.
 */
export function privateFeedsClient(sim: RunningSim, who: SimAccount, engine: Engine): VenueWsClient {
  return new VenueWsClient({
    reconnect: { baseMs: 20, maxMs: 100 },
    url: sim.wsUrl,
    knownMarketIds: async () => engine.markets().map((m) => Number(m.market_id)),
    authenticator: wsAuthenticatorFromRest({
      rest: who.rest,
      context: who.context,
      account: who.account,
      signer: who.signer,
    }),
    staleAfterBlocks: 0,
  });
}

/**
 * Attaches an engine to the simulator's WebSocket as the runtime does (orders, positions, fills,
 * account), for simulators without automatic blocks (no oracle messages, so the silence watchdog
 * is off). Resolves once the account channel's snapshot arrived: it is subscribed last, so every
 * feed is live on the venue by then.
 */
export async function attachEngineToSimWs(
  sim: RunningSim,
  who: SimAccount,
  engine: Engine,
  hooks: Parameters<Engine['attach']>[1] = {},
): Promise<VenueWsClient> {
  const ws = privateFeedsClient(sim, who, engine);
  engine.attach(
    {
      orders: ws.channel('orders'),
      positions: ws.channel('positions'),
      fills: ws.channel('fills'),
      account: ws.channel('account'),
      oracle: NEVER,
      reconnected: NEVER,
    },
    hooks,
  );
  await firstValueFrom(ws.channel('account'));
  return ws;
}
