import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type RunningSim } from '../../../src/sim/startSim.js';
import { CHANNELS, PUBLIC_CHANNELS } from '../../../src/venue/schemas/wsFramesFields.js';
import {
  deepArray,
  hostileContainer,
  hostileNumber,
  hostileString,
  hostileValue,
  JsonEntries,
  jsonText,
  junkEntries,
  POLLUTING,
  RawJson,
} from '../hostileValues.js';
import { WsPeer } from './wsPeer.js';

/**
 * Property: every malformed, mistyped or hostile client frame of every kind (subscribe,
 * unsubscribe, auth_v2, auth, unknown methods, non-objects, non-JSON, binary) gets exactly one
 * reply, an error with a client-error status within a deadline (a handler that throws answers
 * `Internal`, so this catches those too); the connection then still serves a valid subscribe; and
 * the process is neither stopped nor prototype-polluted.
 */

const ADDRESS = '0x1111111111111111111111111111111111111111';
const CLIENT_ERROR_CODES = ['InvalidArgument', 'Unauthenticated', 'PermissionDenied'];
const METHODS = ['subscribe', 'unsubscribe', 'auth_v2', 'auth'];

type Outgoing = { readonly text: string } | { readonly binary: Uint8Array };

const notAString = fc.oneof(hostileNumber, hostileContainer);
const notChannel = fc.oneof(
  hostileString.filter((text) => !(CHANNELS as readonly string[]).includes(text)),
  notAString,
);
const notPublicChannel = fc.oneof(
  hostileString.filter((text) => !(PUBLIC_CHANNELS as readonly string[]).includes(text)),
  fc.constantFrom('orders', 'positions', 'fills', 'account'), // private: refused before auth
  notAString,
);
const notMarketId = fc.oneof(
  hostileString,
  fc.constantFrom(null, true, [], {}),
  hostileNumber.filter((value) => {
    const n = value instanceof RawJson ? Number(value.text) : value;
    return !(typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= 65_535);
  }),
);
const notMarketIds = fc.oneof(
  fc.oneof(hostileString, hostileNumber, fc.constantFrom(null, true, {}, POLLUTING), deepArray),
  fc.tuple(fc.array(fc.nat(65_535), { maxLength: 2 }), notMarketId).map(([good, bad]) => [...good, bad]),
);
const notMakers = fc.oneof(
  fc.oneof(hostileString, hostileNumber, fc.constantFrom(null, true, {})),
  fc
    .tuple(
      fc.constantFrom([], [ADDRESS]),
      fc.oneof(
        hostileString.filter((t) => !/^0x[0-9a-fA-F]{40}$/.test(t)),
        notAString,
      ),
    )
    .map(([good, bad]) => [...good, bad]),
);

/** One to all of the given corruptions applied to a valid params object, plus junk keys. */
function corruptParams(
  valid: Record<string, unknown>,
  corruptions: Record<string, fc.Arbitrary<unknown>>,
  canDrop: readonly string[],
): fc.Arbitrary<JsonEntries> {
  const names = Object.keys(corruptions);
  return fc
    .subarray(names, { minLength: 1 })
    .chain((chosen) =>
      fc.tuple(
        fc.constant(chosen),
        fc.tuple(
          ...chosen.map((name) =>
            canDrop.includes(name) ? fc.option(corruptions[name]!, { nil: undefined, freq: 4 }) : corruptions[name]!,
          ),
        ),
        junkEntries.map((junk) => junk.filter(([key]) => !(key in valid) && !(key in corruptions))),
      ),
    )
    .map(([chosen, values, junk]) => {
      const params = new Map(Object.entries(valid));
      chosen.forEach((name, i) => {
        if (values[i] === undefined) params.delete(name);
        else params.set(name, values[i]);
      });
      return new JsonEntries([...params.entries(), ...junk]);
    });
}

const frame = (method: unknown, params: unknown): Outgoing => ({
  text: jsonText(
    new JsonEntries([
      ['method', method],
      ['params', params],
    ]),
  ),
});

const subscribeFrames = corruptParams(
  { channel: 'trades', market_ids: [1] },
  { channel: notPublicChannel, market_ids: notMarketIds, makers: notMakers },
  ['channel'],
).map((params) => frame('subscribe', params));

const unsubscribeFrames = corruptParams({ channel: 'trades' }, { channel: notChannel }, ['channel']).map((params) =>
  frame('unsubscribe', params),
);

/** Auth frames always fail (nothing here can sign for an Active session key): corrupted or merely wrong. */
const authV2Frames = fc
  .option(
    corruptParams(
      {
        account: ADDRESS,
        signer: ADDRESS,
        message: 'WebSocket Authentication',
        nonce: '0x1',
        signature: `0x${'ab'.repeat(64)}1b`,
      },
      {
        account: hostileValue,
        signer: hostileValue,
        message: notAString,
        nonce: hostileValue,
        signature: hostileValue,
        expiration: hostileValue,
      },
      ['account', 'signer', 'message', 'nonce', 'signature'],
    ),
    { nil: undefined },
  )
  .map((params) =>
    frame(
      'auth_v2',
      params ?? { account: ADDRESS, signer: ADDRESS, message: 'm', nonce: '0x1', signature: `0x${'ab'.repeat(64)}1b` },
    ),
  );

const authFrames = fc
  .oneof(hostileValue, fc.string({ maxLength: 200 }))
  .map((token) => frame('auth', new JsonEntries([['token', token]])));

const badMethodFrames = fc
  .tuple(
    fc.oneof(
      hostileString.filter((text) => !METHODS.includes(text)),
      notAString,
    ),
    fc.option(hostileValue, { nil: undefined }),
  )
  .map(([method, params]) => frame(method, params ?? { channel: 'trades' }));

const badParamsFrames = fc
  .tuple(
    fc.constantFrom(...METHODS),
    fc.oneof(hostileString, hostileNumber, fc.constantFrom(null, true, []), deepArray),
  )
  .map(([method, params]) => frame(method, params));

const noMethodFrames = fc
  .oneof(
    junkEntries.map((junk) => new JsonEntries(junk.filter(([key]) => key !== 'method'))),
    fc.constant(new RawJson('{"__proto__":{"method":"subscribe","params":{"channel":"trades"}}}')),
  )
  .map((value) => ({ text: jsonText(value) }));

const notObjectFrames = fc
  .oneof(
    fc.jsonValue().filter((value) => typeof value !== 'object' || value === null || Array.isArray(value)),
    deepArray,
    hostileString.map((s) => new RawJson(JSON.stringify(s))),
  )
  .map((value) => ({ text: jsonText(value) }));

const notJsonFrames = fc
  .oneof(
    fc.constantFrom('', ' ', '{', '{"method":"subscribe"', "{'method':'subscribe'}", 'subscribe', '\u0000', 'NaN'),
    fc.string({ maxLength: 60 }),
  )
  .filter((text) => {
    try {
      JSON.parse(text);
      return false;
    } catch {
      return true;
    }
  })
  .map((text) => ({ text }));

const binaryFrames = fc
  .oneof(
    fc.uint8Array({ maxLength: 64 }),
    fc.constant(new TextEncoder().encode('{"method":"subscribe","params":{"channel":"trades"}}')),
  )
  .map((binary) => ({ binary }));

/** Frames above 64 KiB close the connection (1009, tested below), so the property stays under it. */
const MAX_FRAME_BYTES = 60_000;

const hostileFrame: fc.Arbitrary<Outgoing> = fc
  .oneof(
    subscribeFrames,
    unsubscribeFrames,
    authV2Frames,
    authFrames,
    badMethodFrames,
    badParamsFrames,
    noMethodFrames,
    notObjectFrames,
    notJsonFrames,
    binaryFrames,
  )
  .filter((outgoing) => !('text' in outgoing) || Buffer.byteLength(outgoing.text) <= MAX_FRAME_BYTES);

let sim: RunningSim;
const internalErrors: unknown[] = [];

beforeAll(async () => {
  sim = await startSim({ port: 0, blockMs: 0, restRequestsPer10s: 0, onError: (error) => internalErrors.push(error) });
});

afterAll(async () => {
  await sim.close();
  expect(internalErrors).toEqual([]);
  expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
});

function send(peer: WsPeer, outgoing: Outgoing): void {
  if ('binary' in outgoing) peer.sendBinary(outgoing.binary);
  else peer.sendText(outgoing.text);
}

function expectClientErrorReply(reply: Record<string, unknown>, sent: Outgoing): void {
  const what = `${'text' in sent ? sent.text.slice(0, 200) : '<binary>'} -> ${JSON.stringify(reply).slice(0, 300)}`;
  const isAuthReply = reply['method'] === 'auth_v2' || reply['method'] === 'auth';
  // The venue refuses a subscribe with the ack frame and status "error", and no status code.
  const isRefusedSubscribe = reply['type'] === 'subscribed';
  if (isAuthReply || isRefusedSubscribe) expect(reply['status'], what).toBe('error');
  else expect(reply, what).toMatchObject({ type: 'error', status: 'error' });
  if (!isRefusedSubscribe) expect(CLIENT_ERROR_CODES, what).toContain(reply['code']);
  expect(typeof reply['message'], what).toBe('string');
}

describe('the simulator WebSocket under hostile frames', () => {
  it('answers each hostile frame with exactly one client-error reply, and the connection still subscribes afterwards', async () => {
    await fc.assert(
      // At most 6 frames per connection: under the 10 frames per second inbound limit.
      fc.asyncProperty(fc.array(hostileFrame, { minLength: 1, maxLength: 5 }), async (frames) => {
        const peer = await WsPeer.open(sim.wsUrl);
        try {
          for (const outgoing of frames) {
            send(peer, outgoing);
            expectClientErrorReply(await peer.next(), outgoing);
          }
          peer.sendText(JSON.stringify({ method: 'subscribe', params: { channel: 'trades', market_ids: [1] } }));
          // The next frame is the ack: a hostile frame that had earned two replies would show up here instead.
          expect(await peer.next()).toMatchObject({
            type: 'subscribed',
            status: 'success',
            channel: 'trades',
            data: { market_ids: [1] },
          });
        } finally {
          peer.close();
        }
      }),
      { numRuns: 150 },
    );
  });

  it('closes a connection that sends invalid UTF-8 as text (1007, as RFC 6455 requires); other connections and new ones go on', async () => {
    const bystander = await WsPeer.open(sim.wsUrl);
    const offender = await WsPeer.open(sim.wsUrl);
    offender.sendText(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]));
    expect((await offender.closed).code).toBe(1007);
    bystander.sendText(JSON.stringify({ method: 'subscribe', params: { channel: 'oracle' } }));
    expect(await bystander.next()).toMatchObject({
      type: 'subscribed',
      channel: 'oracle',
      data: { market_ids: [1, 2, 3, 4] },
    });
    bystander.close();
    const fresh = await WsPeer.open(sim.wsUrl);
    fresh.sendText(JSON.stringify({ method: 'unsubscribe', params: { channel: 'oracle' } }));
    expect(await fresh.next()).toMatchObject({ type: 'unsubscribed', channel: 'oracle' });
    fresh.close();
  });

  it('closes a connection that sends a frame over 64 KiB (1009); the server goes on', async () => {
    const offender = await WsPeer.open(sim.wsUrl);
    offender.sendText(JSON.stringify({ method: 'subscribe', params: { channel: 'x'.repeat(70_000) } }));
    expect((await offender.closed).code).toBe(1009);
    const fresh = await WsPeer.open(sim.wsUrl);
    fresh.sendText(JSON.stringify({ method: 'subscribe', params: { channel: 'trades' } }));
    expect(await fresh.next()).toMatchObject({ type: 'subscribed', channel: 'trades' });
    fresh.close();
  });

  it('describes a deeply nested method instead of serialising it (which would overflow the stack)', async () => {
    const peer = await WsPeer.open(sim.wsUrl);
    peer.sendText(`{"method":${'['.repeat(30_000)}${']'.repeat(30_000)}}`);
    expect(await peer.next()).toMatchObject({
      type: 'error',
      code: 'InvalidArgument',
      message:
        'InvalidArgument: unknown method: an array of 1 item (not a string) (expected one of subscribe, unsubscribe, auth_v2, auth)',
    });
    peer.close();
  });
});
