import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import type { RestClient } from '../../../src/venue/rest/restClient.js';
import { BotSigning } from '../../../src/runtime/bot/botSigning.js';
import { CONTEXT as context, SIGNER_KEY } from '../../protocol/fixtures.js';

const ACCOUNT = '0x00000000000000000000000000000000000000a1';
const signerKey = SIGNER_KEY;
const accountKey = `0x${'22'.repeat(32)}` as const;

/** A venue that hands out login nonces and records the logins it is sent. */
function loginVenue() {
  const logins: { account: string; signature: string }[] = [];
  const rest = {
    loginNonce: () => Promise.resolve({ nonce: '7' }),
    login: (body: { account: string; signature: string }) => {
      logins.push(body);
      return Promise.resolve({ access_token: 'access-1', refresh_token: 'refresh-1', expires_in: 900 });
    },
  } as unknown as RestClient;
  return { rest, logins };
}

describe('BotSigning', () => {
  it('permit mode: the signer only, no JWT session', () => {
    const signing = new BotSigning(
      { account: { address: ACCOUNT }, signer: { privateKey: signerKey } },
      'permit',
      loginVenue().rest,
      new ManualClock(0),
    );
    expect(signing.jwt).toBeUndefined();
    expect(signing.signer.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
  });

  it('JWT mode without the account key is refused at once (KEY_MISSING)', () => {
    expect(
      () =>
        new BotSigning(
          { account: { address: ACCOUNT }, signer: { privateKey: signerKey } },
          'jwt',
          loginVenue().rest,
          new ManualClock(0),
        ),
    ).toThrow(expect.objectContaining({ code: 'KEY_MISSING' }));
  });

  it('the JWT login waits for the signing context of the started engine', async () => {
    const venue = loginVenue();
    const signing = new BotSigning(
      { account: { address: ACCOUNT, privateKey: accountKey }, signer: { privateKey: signerKey } },
      'jwt',
      venue.rest,
      new ManualClock(0),
    );
    await expect(signing.jwt?.bearer()).rejects.toMatchObject({ code: 'ENGINE_NOT_STARTED' });
    expect(venue.logins).toHaveLength(0);

    expect(signing.contextFrom({ signingContext: context })).toBe(context);
    await expect(signing.jwt?.bearer()).resolves.toBe('access-1');
    expect(venue.logins).toEqual([expect.objectContaining({ account: ACCOUNT, signature: expect.any(String) })]);
  });

  it('an engine without a signing context after its start is an error (ENGINE_NOT_STARTED)', () => {
    const signing = new BotSigning(
      { account: { address: ACCOUNT }, signer: { privateKey: signerKey } },
      'permit',
      loginVenue().rest,
      new ManualClock(0),
    );
    expect(() => signing.contextFrom({ signingContext: undefined })).toThrow(
      expect.objectContaining({ code: 'ENGINE_NOT_STARTED' }),
    );
  });
});
