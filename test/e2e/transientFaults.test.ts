import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstValueFrom, filter, timeout } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import { createRestClient } from '../../src/venue/rest/restClient.js';
import { VenueWsClient } from '../../src/venue/ws/venueWsClient.js';
import { wsAuthenticatorFromRest } from '../../src/venue/ws/wsAuthenticatorFromRest.js';
import { startFaultyRestProxy, type FaultyRestProxy } from './support/faultyRestProxy.js';
import { journalBotConfig, prepareProbeRoot, startBotOnSim, until } from './support/journalBot.js';
import { fundedAccount } from './support/simAccount.js';

describe('transient faults never stop the bot', () => {
  let sim: RunningSim;
  let dir: string;
  beforeEach(async () => {
    sim = await startSim({ port: 0, blockMs: 200, registrationLagMs: 0, seed: 7 });
    dir = mkdtempSync(join(tmpdir(), 'perpbot-transient-'));
    prepareProbeRoot(dir);
  });
  afterEach(async () => {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts up with 30 % of the venue reads failing (5xx), logging each wait, and trades', async () => {
    const who = await fundedAccount(sim);
    // Every REST answer has a 30 % chance of a 503 given before anything ran.
    sim.controls.setFaults({ errorRate: 0.3, errorAfterActionShare: 0 });
    const bot = await startBotOnSim(sim, who, journalBotConfig(dir), dir);
    try {
      await until(() => bot.engine.tracker.openOrders().filter((o) => o.orderId !== undefined).length === 2, 20_000);
      const waits = bot.lines
        .map((l) => JSON.parse(l) as { msg: string; endpoint?: string })
        .filter((l) => l.msg.startsWith('waiting for the venue'));
      // With a start-up of a dozen reads, at least one failed and was waited out.
      expect(waits.length).toBeGreaterThan(0);
      expect(bot.engine.conditions.state.mode).toBe('trading');
    } finally {
      await bot.stop();
    }
  }, 40_000);

  it('an auth_v2 whose nonce read fails recovers on the next try', async () => {
    const who = await fundedAccount(sim);
    const proxy: FaultyRestProxy = await startFaultyRestProxy(sim.restUrl);
    const retries: string[] = [];
    const rest = createRestClient({
      baseUrl: proxy.url,
      timeoutMs: 5_000,
      onRetry: (event) => retries.push(event.endpoint),
    });
    const client = new VenueWsClient({
      url: sim.wsUrl,
      knownMarketIds: async () => [1],
      authenticator: wsAuthenticatorFromRest({ rest, context: who.context, account: who.account, signer: who.signer }),
    });
    try {
      proxy.failNext('/v1/auth/nonce', 1);
      const account = firstValueFrom(client.channel('account').pipe(timeout(10_000)));
      expect((await account).account.balance).toBe('1000');
      expect(proxy.refused.get('/v1/auth/nonce')).toBe(1);
      expect(retries).toEqual(['GET /v1/auth/nonce']);
      expect(
        await firstValueFrom(client.connectionState$.pipe(filter((s) => s.status === 'authenticated'))),
      ).toMatchObject({ status: 'authenticated' });
    } finally {
      await client.close();
      await proxy.close();
    }
  });
});
