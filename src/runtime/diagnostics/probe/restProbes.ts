import type { z } from 'zod';
import type { Address } from '../../../core/address.js';
import {
  crossMarginBalanceResponseSchema,
  eip712DomainResponseSchema,
  loginNonceResponseSchema,
  marketsResponseSchema,
  nonceStateResponseSchema,
  openOrdersResponseSchema,
  orderHistoryResponseSchema,
  positionResponseSchema,
  sessionKeyStatusResponseSchema,
  systemConfigResponseSchema,
  tradeHistoryResponseSchema,
} from '../../../venue/schemas/restSchemas.js';
import {
  fundingRateHistoryResponseSchema,
  marketTradeHistoryResponseSchema,
  orderbookResponseSchema,
} from '../../../venue/schemas/restMarketData.js';
import { portfolioDetailsResponseSchema, positionsResponseSchema } from '../../../venue/schemas/restPortfolio.js';
import { tpslOrdersResponseSchema } from '../../../venue/schemas/restTpsl.js';
import { EVERY_TPSL_STATUS } from '../../../venue/rest/tpslEndpoints.js';

/** What the probe knows when it reads: the markets to look at and, with keys, who. */
export interface ProbeTarget {
  readonly markets: readonly number[];
  /** With the account key (or its address): the private reads. */
  readonly account?: Address;
  /** With the session key: its status, and the private channels after auth_v2. */
  readonly signer?: Address;
}

/** One GET the probe sends. */
export interface RestRead {
  /** The row's name, e.g. `GET /v1/account/position?market_id=1`. */
  readonly name: string;
  /** The failure's source, the endpoint as the client labels it: `rest:GET /v1/nonce-state/{account}`. */
  readonly source: string;
  /** Path and query, from the base URL. */
  readonly path: string;
  /** The schema the bot's REST client decodes this answer with. */
  readonly schema: z.ZodType;
}

/** The target of a read that needs the account, and of one that also needs the session key. */
type WithAccount = ProbeTarget & { readonly account: Address };
type WithSigner = WithAccount & { readonly signer: Address };
type ReadsOf<T> = (target: T) => readonly { readonly path: string; readonly label?: string }[];

/** One endpoint of the table: what it needs, the schema the client decodes it with, the reads it makes. */
export type RestProbe = { readonly endpoint: string; readonly schema: z.ZodType } & (
  | { readonly needs: 'nothing'; readonly reads: ReadsOf<ProbeTarget> }
  | { readonly needs: 'account'; readonly reads: ReadsOf<WithAccount> }
  | { readonly needs: 'signer'; readonly reads: ReadsOf<WithSigner> }
);

const once = (path: string) => [{ path }];
const perMarket =
  (path: (marketId: number) => string) =>
  ({ markets }: ProbeTarget): { path: string; label: string }[] =>
    markets.map((m) => ({ path: path(m), label: `market_id=${m}` }));

/**
 * Every read the probe makes, one line each, in the order they print. Only GETs: the probe signs
 * nothing that moves money. A read the REST client gains is one more line here.
 */
export const REST_PROBES: readonly RestProbe[] = [
  {
    needs: 'nothing',
    endpoint: 'GET /v1/system/config',
    schema: systemConfigResponseSchema,
    reads: () => once('/v1/system/config'),
  },
  {
    needs: 'nothing',
    endpoint: 'GET /v1/auth/eip712-domain',
    schema: eip712DomainResponseSchema,
    reads: () => once('/v1/auth/eip712-domain'),
  },
  { needs: 'nothing', endpoint: 'GET /v1/markets', schema: marketsResponseSchema, reads: () => once('/v1/markets') },
  {
    // venue-wire.md §2: the account query is optional; sent when known, as DOC does.
    needs: 'nothing',
    endpoint: 'GET /v1/auth/nonce',
    schema: loginNonceResponseSchema,
    reads: (t) => once(t.account === undefined ? '/v1/auth/nonce' : `/v1/auth/nonce?account=${t.account}`),
  },
  {
    needs: 'nothing',
    endpoint: 'GET /v1/orderbook',
    schema: orderbookResponseSchema,
    reads: perMarket((m) => `/v1/orderbook?market_id=${m}&limit=50`),
  },
  {
    needs: 'nothing',
    endpoint: 'GET /v1/markets/id/{id}/trade-history',
    schema: marketTradeHistoryResponseSchema,
    reads: perMarket((m) => `/v1/markets/id/${m}/trade-history?limit=50`),
  },
  {
    needs: 'nothing',
    endpoint: 'GET /v1/markets/id/{id}/funding-rate-history',
    schema: fundingRateHistoryResponseSchema,
    reads: perMarket((m) => `/v1/markets/id/${m}/funding-rate-history`),
  },
  {
    needs: 'account',
    endpoint: 'GET /v1/nonce-state/{account}',
    schema: nonceStateResponseSchema,
    reads: (t) => once(`/v1/nonce-state/${t.account}`),
  },
  {
    needs: 'account',
    endpoint: 'GET /v1/account/cross-margin-balance',
    schema: crossMarginBalanceResponseSchema,
    reads: (t) => once(`/v1/account/cross-margin-balance?account=${t.account}`),
  },
  {
    needs: 'account',
    endpoint: 'GET /v1/account/position',
    schema: positionResponseSchema,
    reads: (t) => perMarket((m) => `/v1/account/position?account=${t.account}&market_id=${m}`)(t),
  },
  {
    needs: 'account',
    endpoint: 'GET /v1/orders/open',
    schema: openOrdersResponseSchema,
    // market_id is optional (venue-wire.md §2): every market at once, then each market.
    reads: (t) => [
      { path: `/v1/orders/open?account=${t.account}`, label: 'all markets' },
      ...perMarket((m) => `/v1/orders/open?account=${t.account}&market_id=${m}`)(t),
    ],
  },
  {
    needs: 'account',
    endpoint: 'GET /v1/orders',
    schema: orderHistoryResponseSchema,
    reads: (t) => once(`/v1/orders?account=${t.account}&page=1&limit=50`),
  },
  {
    needs: 'account',
    endpoint: 'GET /v1/trade-history',
    schema: tradeHistoryResponseSchema,
    reads: (t) => once(`/v1/trade-history?account=${t.account}&page=1&limit=50`),
  },
  {
    needs: 'account',
    endpoint: 'GET /v1/positions',
    schema: positionsResponseSchema,
    reads: (t) => once(`/v1/positions?account=${t.account}&page=1&page_size=50`),
  },
  {
    needs: 'account',
    endpoint: 'GET /v1/portfolio/details',
    schema: portfolioDetailsResponseSchema,
    reads: (t) => once(`/v1/portfolio/details?account=${t.account}`),
  },
  {
    // venue-tpsl.md: both stop types (the venue's own default is TAKE_PROFIT) and every status.
    needs: 'account',
    endpoint: 'GET /v1/orders/tpsl',
    schema: tpslOrdersResponseSchema,
    reads: (t) =>
      once(
        `/v1/orders/tpsl?account=${t.account}&page=1&limit=50&stop_type=STOP_TYPE_NONE&${EVERY_TPSL_STATUS.map((s) => `statuses=${s}`).join('&')}`,
      ),
  },
  {
    needs: 'signer',
    endpoint: 'GET /v1/auth/session-key-status',
    schema: sessionKeyStatusResponseSchema,
    reads: (t) => once(`/v1/auth/session-key-status?account=${t.account}&signer=${t.signer}`),
  },
];

/** The reads of the table for this target; the ones it cannot make yet come back as skips. */
export function restReads(
  probes: readonly RestProbe[],
  target: ProbeTarget,
): { reads: RestRead[]; skipped: { name: string; reason: string }[] } {
  const reads: RestRead[] = [];
  const skipped: { name: string; reason: string }[] = [];
  for (const probe of probes) {
    const made = readsOf(probe, target);
    if (typeof made === 'string') {
      skipped.push({ name: probe.endpoint, reason: made });
      continue;
    }
    for (const read of made)
      reads.push({
        name: read.label === undefined ? probe.endpoint : `${probe.endpoint}?${read.label}`,
        source: `rest:${probe.endpoint}`,
        path: read.path,
        schema: probe.schema,
      });
  }
  return { reads, skipped };
}

/** The probe's reads of the target, or why it cannot make them (a key is missing). */
function readsOf(probe: RestProbe, target: ProbeTarget): ReturnType<ReadsOf<ProbeTarget>> | string {
  if (probe.needs === 'nothing') return probe.reads(target);
  const { account, signer } = target;
  if (account === undefined) return 'no account key configured (PERPBOT_ACCOUNT_KEY or keys.account_key_file)';
  if (probe.needs === 'account') return probe.reads({ ...target, account });
  if (signer === undefined) return 'no signer key configured (PERPBOT_SIGNER_KEY or keys.signer_key_file)';
  return probe.reads({ ...target, account, signer });
}
