import { sameAddress } from '../../core/address.js';
import {
  approveSingleAcceptSchema,
  loginAcceptSchema,
  registerSignerAcceptSchema,
  revokeSignerAcceptSchema,
} from '../../venue/schemas/restAcceptedBodies.js';
import { bareLoginNonce, normalizeLoginNonce, refreshRequestSchema } from '../../venue/schemas/restAuth.js';
import { loginNonceQuerySchema, sessionKeyStatusQuerySchema } from '../../venue/schemas/restQueries.js';
import { signerStatusDescription } from '../chain/signerRegistry.js';
import { invalidArgument, revertedWith, unauthenticated } from '../simRefusal.js';
import type { SimRuntime } from '../simRuntime.js';
import { parseInput } from './parseInput.js';
import { decodeSignature, recoverSetupSigner } from './setupSignature.js';
import { ok, type SimRequest, type SimResponse, type SimRoute } from './simRoute.js';
import type { LoginNonceWire } from '../../venue/schemas/restCanonical.js';

function sessionKeyStatus(runtime: SimRuntime, request: SimRequest): SimResponse {
  const query = parseInput(sessionKeyStatusQuerySchema, request.query, 'query');
  const status = runtime.chainState.signerStatus(query.account, query.signer);
  return ok({ status, status_description: signerStatusDescription(status) });
}

function loginNonce(runtime: SimRuntime, request: SimRequest): SimResponse {
  const query = parseInput(loginNonceQuerySchema, request.query, 'query');
  // Live: data-wrapped, 64 hex digits without 0x (venue-wire.md §2 auth/nonce).
  return ok({ nonce: bareLoginNonce(runtime.chainState.issueLoginNonce(query.account)) } satisfies LoginNonceWire);
}

function registerSigner(runtime: SimRuntime, request: SimRequest): SimResponse {
  const body = parseInput(registerSignerAcceptSchema, request.body, 'body');
  const action = 'RegisterSigner';
  const now = runtime.nowSeconds();
  if (body.expiration <= BigInt(now))
    throw invalidArgument(`expiration ${body.expiration} is not in the future (now ${now})`);
  const bit = body.nonce_bitmap_index;
  const accountSigner = recoverSetupSigner(
    runtime,
    'RegisterSigner',
    {
      account: body.account,
      signer: body.signer,
      message: body.message,
      expiration: body.expiration,
      nonceAnchor: body.nonce_anchor,
      nonceBitmap: bit,
    },
    decodeSignature(body.account_signature, 'account_signature', 'hex'),
  );
  if (!sameAddress(accountSigner, body.account)) throw revertedWith(action, `SignerNotAuthorized(${accountSigner})`);
  const signerSigner = recoverSetupSigner(
    runtime,
    'VerifySigner',
    { account: body.account, nonceAnchor: body.nonce_anchor, nonceBitmap: bit },
    decodeSignature(body.signer_signature, 'signer_signature', 'hex'),
  );
  if (!sameAddress(signerSigner, body.signer)) throw revertedWith(action, `SignerNotAuthorized(${signerSigner})`);

  const chain = runtime.chainState;
  // Already active: nothing is sent on-chain, so a resend of a request that went through succeeds.
  if (chain.signers.isActive(body.account, body.signer)) {
    return ok({ success: true, transaction_hash: '', status: 1, block_number: chain.blockNumber });
  }
  chain.nonces.consume(body.account, body.nonce_anchor, bit, action);
  chain.signers.activate(body.account, body.signer);
  const stamp = runtime.recordAction([]);
  runtime.publish({ type: 'signer', account: body.account, signer: body.signer, status: 1, ...stamp });
  return ok({ success: true, transaction_hash: stamp.txHash, status: 1, block_number: stamp.blockNumber });
}

function revokeSigner(runtime: SimRuntime, request: SimRequest): SimResponse {
  const body = parseInput(revokeSignerAcceptSchema, request.body, 'body');
  const action = 'RevokeSigner';
  const recovered = recoverSetupSigner(
    runtime,
    'RevokeSigner',
    {
      account: body.account,
      signer: body.signer,
      nonceAnchor: body.nonce_anchor,
      nonceBitmap: body.nonce_bitmap_index,
    },
    decodeSignature(body.account_signature, 'account_signature', 'hex'),
  );
  if (!sameAddress(recovered, body.account)) throw revertedWith(action, `SignerNotAuthorized(${recovered})`);
  const chain = runtime.chainState;
  const status = chain.signers.status(body.account, body.signer);
  if (status === 0) throw revertedWith(action, `SignerNotRegistered(${body.signer})`);
  if (status === 3) return ok({ success: true, transaction_hash: '', block_number: chain.blockNumber });
  chain.nonces.consume(body.account, body.nonce_anchor, body.nonce_bitmap_index, action);
  chain.signers.revoke(body.account, body.signer);
  const stamp = runtime.recordAction([]);
  runtime.publish({ type: 'signer', account: body.account, signer: body.signer, status: 3, ...stamp });
  return ok({ success: true, transaction_hash: stamp.txHash, block_number: stamp.blockNumber });
}

function login(runtime: SimRuntime, request: SimRequest): SimResponse {
  const body = parseInput(loginAcceptSchema, request.body, 'body');
  const now = runtime.nowSeconds();
  if (body.deadline < now) throw invalidArgument(`login deadline expired (deadline ${body.deadline}, now ${now})`);
  const nonce = normalizeLoginNonce(body.nonce);
  const recovered = recoverSetupSigner(
    runtime,
    'Login',
    { account: body.account, nonce: BigInt(nonce), deadline: body.deadline },
    decodeSignature(body.signature, 'signature', 'hex'),
  );
  if (!sameAddress(recovered, body.account)) {
    throw unauthenticated(`login signature recovers to ${recovered}, not the account ${body.account}`);
  }
  const consumed = runtime.chainState.consumeLoginNonce(body.account, nonce);
  if (!consumed.ok) throw unauthenticated(consumed.message.replace(/^\w+: /, ''));
  return ok(runtime.chainState.jwt.issue(body.account, runtime.clock.now()));
}

function refresh(runtime: SimRuntime, request: SimRequest): SimResponse {
  const body = parseInput(refreshRequestSchema, request.body, 'body');
  const pair = runtime.chainState.jwt.refresh(body.refresh_token, runtime.clock.now());
  if (pair === undefined) throw unauthenticated('refresh token unknown, already used or expired');
  return ok(pair);
}

function approveSingle(runtime: SimRuntime, request: SimRequest): SimResponse {
  const body = parseInput(approveSingleAcceptSchema, request.body, 'body');
  const action = 'ApproveSingle';
  const now = runtime.nowSeconds();
  if (body.allowance_expiry <= now)
    throw invalidArgument(`allowance_expiry ${body.allowance_expiry} is not in the future (now ${now})`);
  if (!sameAddress(body.operator, runtime.operatorHub)) throw revertedWith(action, `InvalidOperator(${body.operator})`);
  const recovered = recoverSetupSigner(
    runtime,
    'PermitSingle',
    {
      account: body.account,
      operator: body.operator,
      budget: body.budget,
      allowanceExpiry: body.allowance_expiry,
      nonceAnchor: body.nonce_anchor,
      nonceBitmap: body.nonce_bitmap_index,
    },
    decodeSignature(body.signature, 'signature', 'hex-or-base64'),
  );
  if (!sameAddress(recovered, body.account)) throw revertedWith(action, `SignerNotAuthorized(${recovered})`);
  const chain = runtime.chainState;
  chain.nonces.consume(body.account, body.nonce_anchor, body.nonce_bitmap_index, action);
  chain.allowances.grant(body.account, {
    operator: runtime.operatorHub,
    budgetWei: body.budget,
    expiry: body.allowance_expiry,
  });
  const stamp = runtime.recordAction([]);
  return ok({ success: true, tx_hash: stamp.txHash, block_number: stamp.blockNumber });
}

export const AUTH_ROUTES: readonly SimRoute[] = [
  { method: 'GET', pattern: '/v1/auth/session-key-status', mutates: false, handle: sessionKeyStatus },
  { method: 'GET', pattern: '/v1/auth/nonce', mutates: false, handle: loginNonce },
  { method: 'POST', pattern: '/v1/auth/register-signer', mutates: true, handle: registerSigner },
  { method: 'POST', pattern: '/v1/auth/revoke-signer', mutates: true, handle: revokeSigner },
  { method: 'POST', pattern: '/v1/auth/login', mutates: true, handle: login },
  { method: 'POST', pattern: '/v1/auth/refresh', mutates: true, handle: refresh },
  { method: 'POST', pattern: '/v1/auth/approve-single', mutates: true, handle: approveSingle },
];
