import { describe, expect, it } from 'vitest';
import {
  authRefusal,
  authReply,
  errorFrame,
  statusErrorFrame,
  subscribedAck,
  subscribeRefusal,
  unsubscribedAck,
} from '../../../src/sim/ws/controlFrames.js';
import {
  canonicalSubscribedAckSchema,
  canonicalSubscribeRefusalSchema,
} from '../../../src/venue/schemas/wsWireCanonical.js';
import { controlFrameSchema } from '../../../src/venue/schemas/wsFrames.js';
import {
  authReplySchema,
  errorFrameChannel,
  errorFrameSchema,
  subscribedAckSchema,
  unsubscribedAckSchema,
} from '../../../src/venue/schemas/wsFramesControl.js';

const ACCOUNT = '0x1111111111111111111111111111111111111111';
const SIGNER = '0x2222222222222222222222222222222222222222';

describe('control frames', () => {
  it('subscribed ack echoes the applied filter and states the count', () => {
    const ack = subscribedAckSchema.parse(subscribedAck('orderbook', [1, 7], [1, 2, 3]));
    expect(ack.data?.market_ids).toEqual([1, 7]);
    expect(ack.message).toBe('subscribed to orderbook for 2 market(s)');
    expect(ack.channel).toBe('orderbook');
  });

  it('an ack without a filter says all markets and lists every market of the venue, sorted', () => {
    const ack = subscribedAckSchema.parse(subscribedAck('oracle', [], [3, 1, 2]));
    expect(ack.data?.market_ids).toEqual([1, 2, 3]);
    expect(ack.message).toBe('subscribed to oracle for all markets');
  });

  it('a filter that happens to name every market is still a filter in the message', () => {
    const ack = subscribedAck('oracle', [1, 2], [1, 2]);
    expect(ack.data.market_ids).toEqual([1, 2]);
    expect(ack.message).toBe('subscribed to oracle for 2 market(s)');
  });

  it("acks and refusals are the venue's exact shapes, and the client reads a refusal's channel", () => {
    canonicalSubscribedAckSchema.parse(subscribedAck('oracle', [], [1, 2]));
    const refusal = canonicalSubscribeRefusalSchema.parse(subscribeRefusal('ticker', 'invalid channel: ticker'));
    const decoded = controlFrameSchema.parse(refusal);
    expect(decoded).toMatchObject({ type: 'subscribed', status: 'error', channel: 'ticker' });
    expect(errorFrameChannel({ message: 'authentication required for fills channel' })).toBe('fills');
  });

  it('unsubscribe ack, error and auth replies parse with the client schemas', () => {
    expect(unsubscribedAckSchema.parse(unsubscribedAck('trades')).channel).toBe('trades');
    const error = errorFrameSchema.parse(errorFrame('invalid channel: nope', { method: 'subscribe', channel: 'nope' }));
    expect(errorFrameChannel(error)).toBe('nope');
    const ok = authReplySchema.parse(authReply('auth_v2', { ok: true, account: ACCOUNT, signer: SIGNER }));
    expect(ok).toEqual({ method: 'auth_v2', status: 'success', data: { account: ACCOUNT, signer: SIGNER } });
    const failed = authReplySchema.parse(
      authReply('auth_v2', authRefusal('Unauthenticated', 'nope'), { account: ACCOUNT, signer: SIGNER }),
    );
    expect(failed.status).toBe('error');
    expect(failed.code).toBe('Unauthenticated');
    expect(failed.message).toBe('Unauthenticated: nope');
    expect(failed.data).toEqual({ account: ACCOUNT, signer: SIGNER });
    const jwt = authReplySchema.parse(authReply('auth', { ok: true, account: ACCOUNT }));
    expect(jwt.data).toEqual({ account: ACCOUNT });
  });

  it('a status error frame carries the status name in code and as the message prefix', () => {
    const frame = errorFrameSchema.parse(
      statusErrorFrame('InvalidArgument', 'malformed frame: not JSON', { method: 'subscribe' }),
    );
    expect(frame).toEqual({
      type: 'error',
      status: 'error',
      code: 'InvalidArgument',
      message: 'InvalidArgument: malformed frame: not JSON',
      method: 'subscribe',
    });
    // The venue's own texts stay verbatim; the status rides in code only.
    const verbatim = errorFrameSchema.parse(
      errorFrame('invalid channel: nope', { code: 'InvalidArgument', channel: 'nope' }),
    );
    expect(verbatim).toMatchObject({ code: 'InvalidArgument', message: 'invalid channel: nope' });
  });

  it('every control frame is recognised by the client union', () => {
    for (const frame of [
      subscribedAck('orders', [1], [1, 2]),
      subscribedAck('orders', [], [1, 2]),
      unsubscribedAck('orders'),
      errorFrame('x'),
      statusErrorFrame('InvalidArgument', 'x'),
      authReply('auth', authRefusal('InvalidArgument', 'y')),
    ]) {
      expect(controlFrameSchema.safeParse(frame).success).toBe(true);
    }
  });
});
