import { describe, expect, it } from 'vitest';
import { parseVenueErrorText, VenueError, type VenueErrorKind } from '../../src/venue/venueError.js';
import { PerpbotError } from '../../src/core/perpbotError.js';
import { registerRecentSecret } from '../../src/core/secretRegistry.js';

const ACCOUNT = '0x1111111111111111111111111111111111111111';
const OTHER = '0x2222222222222222222222222222222222222222';

interface Row {
  text: string;
  statusName?: string;
  kind: VenueErrorKind;
  action?: string;
  args: string[];
}

// One row per line of the spec's error table, written the way the venue sends it.
const SPEC_ROWS: Row[] = [
  {
    text: `FailedPrecondition: account ${ACCOUNT} is not registered (userId 0)`,
    statusName: 'FailedPrecondition',
    kind: 'AccountNotRegistered',
    args: [ACCOUNT],
  },
  {
    text: `FailedPrecondition: PlaceOrder reverted: SignerNotAuthorized(${OTHER})`,
    statusName: 'FailedPrecondition',
    kind: 'SignerNotAuthorized',
    action: 'PlaceOrder',
    args: [OTHER],
  },
  { text: 'InvalidNonceAnchor', kind: 'InvalidNonceAnchor', args: [] },
  {
    text: 'FailedPrecondition: PlaceOrder reverted: InvalidNonceIndex(208)',
    statusName: 'FailedPrecondition',
    kind: 'InvalidNonceIndex',
    action: 'PlaceOrder',
    args: ['208'],
  },
  { text: 'NonceUsed', kind: 'NonceUsed', args: [] },
  {
    text: `FailedPrecondition: PlaceOrder reverted: AllowanceExpired(${ACCOUNT},${OTHER})`,
    statusName: 'FailedPrecondition',
    kind: 'AllowanceExpired',
    action: 'PlaceOrder',
    args: [ACCOUNT, OTHER],
  },
  { text: 'OpenPositionExists(-15)', kind: 'OpenPositionExists', args: ['-15'] },
  {
    text: 'InvalidArgument: market orders require FOK or IOC time_in_force, got GTC',
    statusName: 'InvalidArgument',
    kind: 'MarketOrderTimeInForce',
    args: ['GTC'],
  },
  { text: 'signature recovers the wrong address', kind: 'SignerNotAuthorized', args: [] },
];

describe('parseVenueErrorText', () => {
  it.each(SPEC_ROWS)('parses "$text"', (row) => {
    const parsed = parseVenueErrorText(row.text);
    expect(parsed.kind).toBe(row.kind);
    expect(parsed.statusName).toBe(row.statusName);
    expect(parsed.action).toBe(row.action);
    expect(parsed.args).toEqual(row.args);
  });

  it('finds the cause after any status name and action', () => {
    expect(parseVenueErrorText('FailedPrecondition: UpdateMarginMode reverted: OpenPositionExists(42)')).toEqual({
      statusName: 'FailedPrecondition',
      kind: 'OpenPositionExists',
      action: 'UpdateMarginMode',
      args: ['42'],
      errorName: 'OpenPositionExists',
    });
    expect(parseVenueErrorText('FailedPrecondition: CancelOrder reverted: NonceUsed()')).toMatchObject({
      kind: 'NonceUsed',
      action: 'CancelOrder',
      args: [],
    });
    expect(parseVenueErrorText('FailedPrecondition: PlaceOrder reverted: InvalidNonceAnchor(7, 9)')).toMatchObject({
      kind: 'InvalidNonceAnchor',
      args: ['7', '9'],
    });
  });

  it('names any contract error and its arguments, known or not', () => {
    expect(parseVenueErrorText('FailedPrecondition: PlaceOrder reverted: PriceBandExceeded(650000,649990)')).toEqual({
      statusName: 'FailedPrecondition',
      kind: 'Unknown',
      action: 'PlaceOrder',
      errorName: 'PriceBandExceeded',
      args: ['650000', '649990'],
    });
    // A post-only cross is a kind of its own: VENUE_POST_ONLY_WOULD_CROSS, as the strategy guide's outcome table says.
    expect(parseVenueErrorText('FailedPrecondition: PlaceOrder reverted: PostOnlyWouldCross(650000,649990)')).toEqual({
      statusName: 'FailedPrecondition',
      kind: 'PostOnlyWouldCross',
      action: 'PlaceOrder',
      errorName: 'PostOnlyWouldCross',
      args: ['650000', '649990'],
    });
    expect(parseVenueErrorText('NonceUsed').errorName).toBe('NonceUsed');
    expect(
      parseVenueErrorText(`FailedPrecondition: account ${ACCOUNT} is not registered (userId 0)`).errorName,
    ).toBeUndefined();
  });

  it('reads the Go gRPC form of the status', () => {
    expect(
      parseVenueErrorText(
        'rpc error: code = InvalidArgument desc = market orders require FOK or IOC time_in_force, got 1',
      ),
    ).toEqual({
      statusName: 'InvalidArgument',
      kind: 'MarketOrderTimeInForce',
      args: ['1'],
    });
  });

  it('recognises expired permits and rate limits', () => {
    expect(parseVenueErrorText('InvalidArgument: permit deadline expired').kind).toBe('PermitExpired');
    expect(parseVenueErrorText('FailedPrecondition: PlaceOrder reverted: SignatureExpired(1700000000)')).toMatchObject({
      kind: 'PermitExpired',
      args: ['1700000000'],
    });
    expect(
      parseVenueErrorText('ResourceExhausted: rate limited: 1 request per second for update_leverage'),
    ).toMatchObject({
      statusName: 'ResourceExhausted',
      kind: 'RateLimited',
    });
  });

  it('falls back to the status name when the cause is not known', () => {
    expect(parseVenueErrorText('Unauthenticated: token expired').kind).toBe('Unauthenticated');
    expect(parseVenueErrorText('PermissionDenied: wrong account').kind).toBe('Unauthenticated');
    expect(parseVenueErrorText('InvalidArgument: size_steps must be positive').kind).toBe('InvalidArgument');
    expect(parseVenueErrorText('Internal: no on-chain state').kind).toBe('Internal');
    expect(parseVenueErrorText('something odd')).toEqual({ kind: 'Unknown', args: [] });
  });

  it('does not take an ordinary word before a colon for a status name', () => {
    expect(parseVenueErrorText('Order: bad thing').statusName).toBeUndefined();
  });
});

describe('VenueError', () => {
  it('parses the JSON error envelope and keeps status, code, action, args and request id', () => {
    const rawBody = JSON.stringify({
      error: {
        code: 'FailedPrecondition',
        message: `FailedPrecondition: PlaceOrder reverted: SignerNotAuthorized(${OTHER})`,
      },
      request_id: 'req-1',
    });
    const error = new VenueError({ httpStatus: 400, rawBody, endpoint: 'POST /v1/orders/place' });
    expect(error).toBeInstanceOf(PerpbotError);
    expect(error.kind).toBe('SignerNotAuthorized');
    expect(error.statusName).toBe('FailedPrecondition');
    expect(error.action).toBe('PlaceOrder');
    expect(error.args).toEqual([OTHER]);
    expect(error.httpStatus).toBe(400);
    expect(error.rawBody).toBe(rawBody);
    expect(error.requestId).toBe('req-1');
    expect(error.code).toBe('VENUE_SIGNER_NOT_AUTHORIZED');
    expect(error.message).toContain('POST /v1/orders/place failed with HTTP 400');
    expect(error.hints[0]).toMatch(
      /permit target is addresses.router first; the address in the message is meaningless/,
    );
    expect(error.mayHaveExecuted).toBe(false);
  });

  it('hints at an unknown contract error by name', () => {
    const error = new VenueError({
      httpStatus: 400,
      rawBody: 'FailedPrecondition: CancelOrder reverted: OrderNotFound(17)',
    });
    expect(error.kind).toBe('Unknown');
    expect(error.errorName).toBe('OrderNotFound');
    expect(error.args).toEqual(['17']);
    expect(error.hints).toContain(
      "the contract refused the action with OrderNotFound(17); see the venue's text for its meaning",
    );
  });

  it('uses the envelope code when the message carries no status name', () => {
    const rawBody = JSON.stringify({ error: { code: 'FailedPrecondition', message: 'NonceUsed' } });
    const error = new VenueError({ httpStatus: 400, rawBody });
    expect(error.statusName).toBe('FailedPrecondition');
    expect(error.kind).toBe('NonceUsed');
    expect(error.hints.join(' ')).toMatch(/fresh pair/);
  });

  it('parses a plain-text body', () => {
    const error = new VenueError({
      httpStatus: 400,
      rawBody: `FailedPrecondition: account ${ACCOUNT} is not registered (userId 0)\n`,
    });
    expect(error.kind).toBe('AccountNotRegistered');
    expect(error.args).toEqual([ACCOUNT]);
    expect(error.hints[0]).toMatch(/the deposit may not be indexed yet; retry shortly/);
  });

  it('classifies by HTTP status when the body says nothing', () => {
    expect(new VenueError({ httpStatus: 401, rawBody: '' }).kind).toBe('Unauthenticated');
    expect(new VenueError({ httpStatus: 429, rawBody: 'slow' }).kind).toBe('RateLimited');
    expect(new VenueError({ httpStatus: 500, rawBody: '' }).kind).toBe('Internal');
    expect(new VenueError({ httpStatus: 418, rawBody: '' }).kind).toBe('Unknown');
  });

  it('treats a 5xx as no definite answer', () => {
    const error = new VenueError({ httpStatus: 503, rawBody: 'Unavailable: try later' });
    expect(error.statusName).toBe('Unavailable');
    expect(error.mayHaveExecuted).toBe(true);
    expect(error.hints.join(' ')).toMatch(/may have executed/);
  });

  it('keeps signatures and JWTs out of the message', () => {
    const signature = `0x${'ab'.repeat(65)}`;
    registerRecentSecret(signature); // as the engine does with every signature it makes
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';
    const error = new VenueError({
      httpStatus: 400,
      rawBody: `InvalidArgument: bad signature ${signature} for ${jwt}`,
    });
    expect(error.message).not.toContain(signature);
    expect(error.message).not.toContain(jwt);
    expect(JSON.stringify(error.toJSON())).not.toContain(signature);
  });
});
