import type { Address } from '../../core/address.js';
import type { Hex32 } from '../../protocol/actionHashes.js';
import type { Permit } from '../../venue/schemas/restPermit.js';
import { verifyPermit, type PermitAction } from '../chain/permitVerifier.js';
import type { ExchangeEvent } from '../exchange/exchangeEvents.js';
import { fillNotionalWei } from '../exchange/fillNotional.js';
import type { BlockStamp } from '../simContext.js';
import { revertedWith, SimRefusal, unauthenticated } from '../simRefusal.js';
import type { SimRuntime } from '../simRuntime.js';
import type { SimRequest } from './simRoute.js';

export interface AuthorizedAction {
  readonly account: Address;
  readonly path: 'permit' | 'jwt';
}

/**
 * Runs one trading action the way the venue does: resolve who acts (permit or JWT), check the
 * account is registered, verify the permit (or the operator-hub allowance for JWT), execute,
 * and only then consume the nonce: an action that reverts consumes nothing. Returns the
 * action's result and the stamp of the transaction that mined it.
 */
export function runAuthorizedAction<R extends { readonly events: readonly ExchangeEvent[] }>(
  runtime: SimRuntime,
  request: SimRequest,
  action: PermitAction,
  permit: Permit | undefined,
  actionHash: () => Hex32 | Uint8Array,
  execute: (who: AuthorizedAction) => R,
): { result: R; stamp: BlockStamp; who: AuthorizedAction } {
  const chain = runtime.chainState;
  const who = authorize(runtime, request, action, permit, actionHash);
  const result = execute(who);
  if (permit !== undefined)
    chain.nonces.consume(permit.account, permit.nonce_anchor, permit.nonce_bitmap_index, action);
  if (who.path === 'jwt') chain.allowances.spend(who.account, fillNotionalWei(who.account, result.events));
  return { result, stamp: runtime.recordAction(result.events), who };
}

function authorize(
  runtime: SimRuntime,
  request: SimRequest,
  action: PermitAction,
  permit: Permit | undefined,
  actionHash: () => Hex32 | Uint8Array,
): AuthorizedAction {
  const chain = runtime.chainState;
  if (permit !== undefined) {
    checkRegistered(runtime, permit.account);
    verifyPermit(runtime.signingContext, chain.nonces, chain.signers, {
      action,
      permit,
      actionHash,
      nowSeconds: runtime.nowSeconds(),
    });
    return { account: permit.account, path: 'permit' };
  }
  if (request.bearer === undefined) {
    throw unauthenticated(
      'missing permit: send a signed permit, or Authorization: Bearer <JWT> with an operator-hub allowance',
    );
  }
  const token = chain.verifyJwt(request.bearer);
  if (!token.ok) throw new SimRefusal(token.status, token.code, token.message.replace(/^\w+: /, ''));
  const account = token.value;
  checkRegistered(runtime, account);
  // Only an order can spend the budget (by its fills), so only an order needs budget left.
  if (!chain.allowances.usable(account, runtime.nowSeconds(), action === 'PlaceOrder')) {
    throw revertedWith(action, `AllowanceExpired(${account},${runtime.operatorHub})`);
  }
  return { account, path: 'jwt' };
}

export function checkRegistered(runtime: SimRuntime, account: Address): void {
  if (!runtime.chainState.isRegistered(account)) {
    throw new SimRefusal(400, 'FailedPrecondition', `account ${account} is not registered (userId 0)`);
  }
}
