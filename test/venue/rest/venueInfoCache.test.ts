import { afterEach, describe, expect, it } from 'vitest';
import { InvalidValueError } from '../../../src/core/invalidValueError.js';
import { createRestClient } from '../../../src/venue/rest/restClient.js';
import { VenueInfoCache } from '../../../src/venue/rest/venueInfoCache.js';
import { VenueError } from '../../../src/venue/venueError.js';
import { sendJson, startHttpPeer } from './testHttpPeer.js';

const AUTH = '0x1111111111111111111111111111111111111111';
const ROUTER_A = '0x2222222222222222222222222222222222222222';
const ROUTER_B = '0x3333333333333333333333333333333333333333';
const MARKET = { market_id: '1', mark_price: '1', config: { name: 'BTC/USDC', step_size: '0.001', step_price: '0.1', min_order_size: '0.001' } };

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** A venue whose router can be "redeployed" and whose config endpoint can fail on demand. */
async function venue() {
  const state = { router: ROUTER_A, failConfig: false };
  const peer = await startHttpPeer((req, res) => {
    if (req.path === '/v1/system/config') {
      if (state.failConfig) sendJson(res, 503, { error: { code: 'Unavailable', message: 'Unavailable: restarting' } });
      else sendJson(res, 200, { data: { addresses: { auth: AUTH, router: state.router } } });
    } else if (req.path === '/v1/auth/eip712-domain') {
      sendJson(res, 200, { data: { name: 'Auth', version: '1', chain_id: '31337', verifying_contract: AUTH } });
    } else {
      sendJson(res, 200, { data: { markets: [MARKET] } });
    }
  });
  close = peer.close;
  // One attempt per read (deadline 0), so a failing read fails at once instead of being retried.
  const cache = new VenueInfoCache(createRestClient({ baseUrl: peer.baseUrl, timeoutMs: 2000, rateLimit: false, readDeadlineMs: 0 }));
  const count = (path: string) => peer.seen.filter((r) => r.path === path).length;
  return { state, cache, count };
}

describe('VenueInfoCache', () => {
  it('reads each resource once, sharing concurrent first reads', async () => {
    const { cache, count } = await venue();
    const [a, b] = await Promise.all([cache.systemConfig(), cache.systemConfig()]);
    expect(a).toBe(b);
    await cache.systemConfig();
    await cache.domain();
    await cache.domain();
    expect(count('/v1/system/config')).toBe(1);
    expect(count('/v1/auth/eip712-domain')).toBe(1);
    expect((await cache.domain()).chain_id).toBe(31337n);
  });

  it('sees a redeploy only after refresh()', async () => {
    const { state, cache, count } = await venue();
    expect((await cache.systemConfig()).addresses.router).toBe(ROUTER_A);
    state.router = ROUTER_B;
    expect((await cache.systemConfig()).addresses.router).toBe(ROUTER_A);
    const fresh = await cache.refresh();
    expect(fresh.systemConfig.addresses.router).toBe(ROUTER_B);
    expect(fresh.markets.markets).toHaveLength(1);
    expect((await cache.systemConfig()).addresses.router).toBe(ROUTER_B);
    expect(count('/v1/system/config')).toBe(2);
  });

  it('does not keep a failed read', async () => {
    const { state, cache, count } = await venue();
    state.failConfig = true;
    await expect(cache.systemConfig()).rejects.toBeInstanceOf(VenueError);
    state.failConfig = false;
    expect((await cache.systemConfig()).addresses.auth).toBe(AUTH);
    expect(count('/v1/system/config')).toBe(2);
  });

  it('finds a market by id and names the known ids otherwise', async () => {
    const { cache } = await venue();
    expect((await cache.market('1')).config.step_size).toBe('0.001');
    await expect(cache.market('9')).rejects.toThrow(InvalidValueError);
    await expect(cache.market('9')).rejects.toThrow(/one of 1/);
  });

  it('lets one caller stop waiting without failing the shared read', async () => {
    const { cache } = await venue();
    const controller = new AbortController();
    const impatient = cache.markets(controller.signal);
    const patient = cache.markets();
    controller.abort(new Error('gave up'));
    await expect(impatient).rejects.toThrow('gave up');
    expect((await patient).markets[0]?.market_id).toBe('1');
  });
});
