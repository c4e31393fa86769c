import { updateIsolatedMarginHash, updateLeverageHash, updateMarginModeHash } from '../../protocol/actionHashes.js';
import { crossMarginBalanceQuerySchema, positionQuerySchema } from '../../venue/schemas/restQueries.js';
import { depositRequestSchema } from '../../venue/schemas/restAccount.js';
import {
  isolatedMarginAcceptSchema,
  leverageAcceptSchema,
  marginModeAcceptSchema,
} from '../../venue/schemas/restAcceptedBodies.js';
import type { Address } from '../../core/address.js';
import { SYNTHETIC_MAKER_ACCOUNTS, SYNTHETIC_TAKER_ACCOUNT } from '../exchange/syntheticMakers.js';
import { SimRefusal, invalidArgument } from '../simRefusal.js';
import type { SimRuntime } from '../simRuntime.js';
import { runAuthorizedAction } from './authorizeAction.js';
import { parseInput } from './parseInput.js';
import { positionWire } from './positionWire.js';
import { ok, type SimRequest, type SimResponse, type SimRoute } from './simRoute.js';
import type { canonicalPositionDataSchema } from '../../venue/schemas/restCanonical.js';
import type { z } from 'zod';

/** The simulator's own market-making wallets: the faucet is for non-bot wallets only (spec "Limits"). */
const BOT_WALLETS = new Set([...SYNTHETIC_MAKER_ACCOUNTS, SYNTHETIC_TAKER_ACCOUNT].map((a) => a.toLowerCase()));

/** The faucet pays exactly this, once per wallet (spec "Limits"). */
export const FAUCET_USDC = '1000';

function deposit(runtime: SimRuntime, request: SimRequest): SimResponse {
  const body = parseInput(depositRequestSchema, request.body, 'body');
  const accounts = runtime.chainState.accounts;
  if (BOT_WALLETS.has(body.account.toLowerCase())) {
    throw new SimRefusal(400, 'FailedPrecondition', `faucet refuses bot wallet ${body.account}`);
  }
  if (accounts.hasUsedFaucet(body.account)) {
    throw new SimRefusal(
      400,
      'FailedPrecondition',
      `faucet already used by ${body.account}: it pays ${FAUCET_USDC} USDC once per wallet`,
    );
  }
  const result = runtime.exchange.deposit(body.account, FAUCET_USDC);
  accounts.recordDeposit(body.account, runtime.clock.now());
  const stamp = runtime.recordAction(result.events);
  return ok({ success: true, tx_hash: stamp.txHash, amount: FAUCET_USDC });
}

function receipt(stamp: { txHash: string; blockNumber: number }): SimResponse {
  return ok({ success: true, tx_hash: stamp.txHash, block_number: stamp.blockNumber });
}

/**
 * The account actions take their permit as `permit_params`; a body that sends `permit` instead is
 * refused in the venue's words (venue-wire.md §4.14, live), not treated as unsigned.
 */
function checkPermitParams(body: unknown): void {
  if (typeof body !== 'object' || body === null) return;
  if ('permit' in body && !('permit_params' in body)) throw invalidArgument('permit_params is required');
}

function leverage(runtime: SimRuntime, request: SimRequest): SimResponse {
  checkPermitParams(request.body);
  const body = parseInput(leverageAcceptSchema, request.body, 'body');
  const marketId = Number(body.market_id);
  const value = Number(body.leverage);
  const hash = () => updateLeverageHash(marketId, value, runtime.options.selectors);
  const { stamp } = runAuthorizedAction(runtime, request, 'UpdateLeverage', body.permit_params, hash, (who) => {
    if (!runtime.leverageLimiter.take(who.account.toLowerCase(), runtime.clock.now())) {
      throw new SimRefusal(429, 'ResourceExhausted', 'rate limited: 1 request per second for update_leverage');
    }
    return runtime.exchange.setLeverage(who.account, marketId, value);
  });
  return receipt(stamp);
}

function marginMode(runtime: SimRuntime, request: SimRequest): SimResponse {
  checkPermitParams(request.body);
  const body = parseInput(marginModeAcceptSchema, request.body, 'body');
  const marketId = Number(body.market_id);
  const hash = () => updateMarginModeHash(marketId, body.margin_mode, runtime.options.selectors);
  const { stamp } = runAuthorizedAction(runtime, request, 'UpdateMarginMode', body.permit_params, hash, (who) =>
    runtime.exchange.setMarginMode(who.account, marketId, body.margin_mode),
  );
  return receipt(stamp);
}

function isolatedMargin(runtime: SimRuntime, request: SimRequest): SimResponse {
  checkPermitParams(request.body);
  const body = parseInput(isolatedMarginAcceptSchema, request.body, 'body');
  const marketId = Number(body.market_id);
  if (body.amount === 0n) throw invalidArgument('amount must not be 0');
  const hash = () => updateIsolatedMarginHash(marketId, body.amount, runtime.options.selectors);
  const { stamp } = runAuthorizedAction(runtime, request, 'UpdateIsolatedMargin', body.permit_params, hash, (who) =>
    runtime.exchange.adjustIsolatedMargin(who.account, marketId, body.amount),
  );
  return receipt(stamp);
}

export function checkKnownMarket(runtime: SimRuntime, marketId: string): number {
  const id = Number(marketId);
  if (!runtime.options.markets.some((market) => market.market_id === id))
    throw invalidArgument(`unknown market_id ${marketId}`);
  return id;
}

/** venue-facts: an account with no on-chain state answers 500 Internal on account reads. */
export function checkOnChain(runtime: SimRuntime, account: Address): void {
  if (!runtime.chainState.accounts.isKnown(account)) {
    throw new SimRefusal(500, 'Internal', `account ${account} has no on-chain state`);
  }
}

function position(runtime: SimRuntime, request: SimRequest): SimResponse {
  const query = parseInput(positionQuerySchema, request.query, 'query');
  const marketId = checkKnownMarket(runtime, query.market_id);
  checkOnChain(runtime, query.account);
  const record = runtime.exchange.position(query.account, marketId);
  const indexPrice = runtime.exchange.markets().find((m) => m.market_id === String(marketId))?.index_price ?? '';
  return ok({ position: positionWire(record, indexPrice) } satisfies z.input<typeof canonicalPositionDataSchema>);
}

function crossMarginBalance(runtime: SimRuntime, request: SimRequest): SimResponse {
  const query = parseInput(crossMarginBalanceQuerySchema, request.query, 'query');
  checkOnChain(runtime, query.account);
  return ok({ balance: runtime.exchange.balance(query.account).balance });
}

export const ACCOUNT_ROUTES: readonly SimRoute[] = [
  { method: 'POST', pattern: '/v1/account/deposit', mutates: true, handle: deposit },
  { method: 'POST', pattern: '/v1/account/leverage', mutates: true, handle: leverage },
  { method: 'POST', pattern: '/v1/account/margin-mode', mutates: true, handle: marginMode },
  { method: 'POST', pattern: '/v1/account/isolated-margin', mutates: true, handle: isolatedMargin },
  { method: 'GET', pattern: '/v1/account/position', mutates: false, handle: position },
  { method: 'GET', pattern: '/v1/account/cross-margin-balance', mutates: false, handle: crossMarginBalance },
];
