import { approveOperator, type OperatorApproval } from '../../engine/account/approveOperator.js';
import { loginAccount } from './loginAccount.js';
import { SetupError } from './setupError.js';
import { signalOf, type JwtSetupOptions, type SetupRun } from './setupRun.js';

export interface JwtAccess {
  readonly accessTokenExpiresIn: number;
  readonly approval: OperatorApproval;
}

/**
 * What JWT trading needs: a login that works (the tokens are neither stored nor logged) and the
 * operator-hub allowance (approve-single) the JWT orders spend.
 */
export async function grantJwtAccess(run: SetupRun, jwt: JwtSetupOptions): Promise<JwtAccess> {
  const { rest, account, clock, log } = run.options;
  const { context, operatorHub } = run.signing;
  const tokens = await loginAccount({ rest, context, account, clock, ...signalOf(run) });
  log.info({ account: account.address, expires_in: tokens.expires_in }, 'logged in (JWT issued, not stored)');
  if (operatorHub === undefined) {
    throw new SetupError(
      'approveSingle',
      'the venue system config has no addresses.operator_hub, so the operator-hub allowance cannot be granted',
      { hints: ['use auth.mode permit, or check GET /v1/system/config on this venue'] },
    );
  }
  const approval = await approveOperator({
    rest,
    context,
    account,
    operator: operatorHub,
    budget: jwt.budget,
    validForSeconds: jwt.validForSeconds,
    clock,
    reservations: run.reservations,
    ...signalOf(run),
  });
  log.info(
    {
      account: account.address,
      operator: approval.operator,
      budget: approval.budget,
      allowance_expiry: approval.allowanceExpiry,
      tx_hash: approval.txHash,
    },
    'operator-hub allowance granted',
  );
  return { accessTokenExpiresIn: tokens.expires_in, approval };
}
