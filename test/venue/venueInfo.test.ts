import { describe, expect, it } from 'vitest';
import { readMarkets, readVenueSigning, VenueInfo } from '../../src/venue/venueInfo.js';
import { createSigningContext } from '../../src/protocol/signingContext.js';
import { parseDomain } from '../../src/protocol/domain.js';
import type { RestClient } from '../../src/venue/rest/restClient.js';
import type { RestCallOptions } from '../../src/venue/rest/restTransport.js';
import type { Market } from '../../src/venue/schemas/restMarkets.js';

const ROUTER = '0x00000000000000000000000000000000000000a1';
const OTHER_ROUTER = '0x00000000000000000000000000000000000000a2';
const HUB = '0x00000000000000000000000000000000000000b1';
const VERIFIER = '0x00000000000000000000000000000000000000c1';

function market(id: number, mark: string): Market {
  return {
    market_id: String(id),
    mark_price: mark,
    config: { name: `M${id}`, step_size: '0.001', step_price: '0.1', min_order_size: '0.001' },
  };
}

/** The venue's three reads, answered from mutable state; every call's options are kept. */
function fakeVenue() {
  const state = {
    domainName: 'Perps',
    router: ROUTER as string,
    operatorHub: HUB as string | undefined,
    markets: [market(1, '100'), market(2, '200')],
  };
  const calls: { readonly read: string; readonly options: RestCallOptions | undefined }[] = [];
  const rest = {
    eip712Domain: async (options?: RestCallOptions) => {
      calls.push({ read: 'domain', options });
      return { name: state.domainName, version: '1', chain_id: 31337n, verifying_contract: VERIFIER };
    },
    systemConfig: async (options?: RestCallOptions) => {
      calls.push({ read: 'system', options });
      return {
        addresses: {
          auth: VERIFIER,
          router: state.router,
          ...(state.operatorHub === undefined ? {} : { operator_hub: state.operatorHub }),
        },
      };
    },
    markets: async (options?: RestCallOptions) => {
      calls.push({ read: 'markets', options });
      return { markets: state.markets };
    },
  } as unknown as Pick<RestClient, 'eip712Domain' | 'systemConfig' | 'markets'>;
  return { state, calls, rest };
}

describe('readVenueSigning', () => {
  it('builds the signing context from the domain with addresses.router as the permit target', async () => {
    const { rest } = fakeVenue();
    const signing = await readVenueSigning(rest);
    const expected = createSigningContext(
      parseDomain({ name: 'Perps', version: '1', chain_id: '31337', verifying_contract: VERIFIER }),
      ROUTER,
    );
    expect(signing.context.router.toLowerCase()).toBe(ROUTER);
    expect([...signing.context.separator]).toEqual([...expected.separator]);
    expect(signing.operatorHub).toBe(HUB);
  });

  it('passes the caller signal to both reads, and reports a venue without an operator hub as undefined', async () => {
    const { state, calls, rest } = fakeVenue();
    state.operatorHub = undefined;
    const signal = new AbortController().signal;
    const signing = await readVenueSigning(rest, signal);
    expect(signing.operatorHub).toBeUndefined();
    expect(calls.map((c) => c.options?.signal)).toEqual([signal, signal]);
  });
});

describe('readMarkets', () => {
  it('returns the market records, passing the caller signal when there is one and no options otherwise', async () => {
    const { calls, rest } = fakeVenue();
    const signal = new AbortController().signal;
    expect((await readMarkets(rest, signal)).map((m) => m.market_id)).toEqual(['1', '2']);
    await readMarkets(rest);
    expect(calls).toEqual([
      { read: 'markets', options: { signal } },
      { read: 'markets', options: undefined },
    ]);
  });
});

describe('VenueInfo', () => {
  it('has no signing info before the first read, and a first read is no change', async () => {
    const { rest } = fakeVenue();
    const venue = new VenueInfo(rest);
    expect(venue.signing).toBeUndefined();
    const first = await venue.refreshSigning();
    expect(first.changed).toBe(false);
    expect(venue.signing).toBe(first.signing);
  });

  it('says whether a refresh found another router or another domain, and keeps what it read last', async () => {
    const { state, rest } = fakeVenue();
    const venue = new VenueInfo(rest);
    await venue.refreshSigning();
    expect((await venue.refreshSigning()).changed).toBe(false);

    state.router = OTHER_ROUTER;
    const moved = await venue.refreshSigning();
    expect(moved.changed).toBe(true);
    expect(venue.signing?.context.router.toLowerCase()).toBe(OTHER_ROUTER);

    state.domainName = 'Perps v2';
    expect((await venue.refreshSigning()).changed).toBe(true);
    expect((await venue.refreshSigning()).changed).toBe(false);
  });

  it('keeps the signing info it had when a refresh fails', async () => {
    const { rest } = fakeVenue();
    const venue = new VenueInfo(rest);
    const { signing } = await venue.refreshSigning();
    (rest as unknown as { systemConfig: () => Promise<never> }).systemConfig = () => Promise.reject(new Error('503'));
    await expect(venue.refreshSigning()).rejects.toThrow('503');
    expect(venue.signing).toBe(signing);
  });

  it('serves market records with the live mark merged in when read, ignoring marks of unknown markets', async () => {
    const { rest } = fakeVenue();
    const venue = new VenueInfo(rest);
    expect(venue.market(1)).toBeUndefined();
    await venue.refreshMarkets();
    expect(venue.marketIds()).toEqual([1, 2]);

    venue.setMark(1, '101.5');
    venue.setMark(9, '5');
    expect(venue.market(1)?.mark_price).toBe('101.5');
    expect(venue.market(1)?.config.name).toBe('M1');
    expect(venue.market(9)).toBeUndefined();
    venue.setMark(2, '199');
    expect(venue.markets().map((m) => [m.market_id, m.mark_price])).toEqual([
      ['1', '101.5'],
      ['2', '199'],
    ]);
  });

  it('replaces the records on a market refresh, dropping marks older than the read', async () => {
    const { state, rest } = fakeVenue();
    const venue = new VenueInfo(rest);
    await venue.refreshMarkets();
    venue.setMark(1, '150');
    state.markets = [market(1, '120'), market(3, '300')];

    const read = await venue.refreshMarkets();
    expect(read.map((m) => m.market_id)).toEqual(['1', '3']);
    expect(venue.market(1)?.mark_price).toBe('120');
    expect(venue.market(2)).toBeUndefined();
    expect(venue.marketIds()).toEqual([1, 3]);
  });

  it('gives the live mark without a copy of the record, as the record read then would carry it', async () => {
    const { rest } = fakeVenue();
    const venue = new VenueInfo(rest);
    expect(venue.markOf(1)).toBeUndefined();
    await venue.refreshMarkets();
    expect(venue.markOf(1)).toBe('100');
    const record = venue.market(1);
    venue.setMark(1, '101.5');
    venue.setMark(9, '5');
    expect(venue.markOf(1)).toBe('101.5');
    expect(venue.markOf(9)).toBeUndefined();
    expect(venue.market(1)?.mark_price).toBe(venue.markOf(1));
    expect(record?.mark_price).toBe('100');
  });

  it("gives a market's config as its record read then carries it, across marks and refreshes", async () => {
    const { state, rest } = fakeVenue();
    const venue = new VenueInfo(rest);
    expect(venue.marketConfig(1)).toBeUndefined();
    await venue.refreshMarkets();
    const config = venue.marketConfig(1);
    expect(config).toBe(venue.market(1)?.config);

    venue.setMark(1, '101.5');
    expect(venue.marketConfig(1)).toBe(config);
    expect(venue.market(1)?.config).toBe(config);
    expect(venue.marketConfig(9)).toBeUndefined();

    state.markets = [{ ...market(1, '120'), config: { ...market(1, '120').config, step_price: '0.5' } }];
    await venue.refreshMarkets();
    expect(venue.marketConfig(1)?.step_price).toBe('0.5');
    expect(venue.marketConfig(1)).toBe(venue.market(1)?.config);
  });

  it("gives the checks one view per market that carries the live mark without copying, and the record's rules", async () => {
    const { state, rest } = fakeVenue();
    const venue = new VenueInfo(rest);
    expect(venue.checkedMarket(1)).toBeUndefined();
    await venue.refreshMarkets();
    const view = venue.checkedMarket(1);
    expect(view?.mark_price).toBe('100');
    expect(view?.config).toBe(venue.market(1)?.config);

    venue.setMark(1, '101.5');
    expect(venue.checkedMarket(1)).toBe(view);
    expect(view?.mark_price).toBe('101.5');
    expect(venue.market(1)?.mark_price).toBe('101.5');
    expect(venue.checkedMarket(9)).toBeUndefined();

    state.markets = [market(1, '120')];
    await venue.refreshMarkets();
    expect(venue.checkedMarket(1)?.mark_price).toBe('120');
    expect(view?.mark_price).toBe('101.5');
  });
});
