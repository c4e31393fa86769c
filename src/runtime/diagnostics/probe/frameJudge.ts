import { orderbookChecksumOfWire } from '../../../protocol/orderbookChecksum.js';
import { LocalOrderBook } from '../../../venue/orderbook/localOrderBook.js';
import { errorFrameChannel, type AuthReply } from '../../../venue/schemas/wsFrames.js';
import { decodeServerFrame } from '../../../venue/ws/decodeServerFrame.js';
import { describeReceived } from '../../../venue/wireDecodeFailure.js';
import { ChannelTally } from './channelTally.js';

export const CONTROL_ROW = 'control frames (acks, auth replies)';

/**
 * Judges every frame the probe receives with the bot's own decoder (`decodeServerFrame`, the
 * fast paths included) and tallies it on its channel: decoded, departed (with the field, from the
 * channel's zod schema), acked or refused. Orderbook frames also go into a local book per market,
 * so every update's checksum is checked as the bot checks it.
 */
export class FrameJudge {
  readonly control = new ChannelTally(CONTROL_ROW, false);
  private readonly books = new Map<number, LocalOrderBook>();
  private readonly authWaiters: ((frame: AuthReply) => void)[] = [];

  constructor(private readonly channels: ReadonlyMap<string, ChannelTally>) {}

  /** Resolves with the next auth reply (auth_v2 or auth) the server sends. */
  nextAuthReply(): Promise<AuthReply> {
    return new Promise((resolve) => this.authWaiters.push(resolve));
  }

  judge(text: string): void {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      this.control.departed(
        { source: 'ws:control', field: '(frame)', expected: 'JSON', received: describeReceived(text) },
        text,
      );
      return;
    }
    const record =
      typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
    const channel = typeof record['channel'] === 'string' ? record['channel'] : undefined;
    const decoded = decodeServerFrame(text);
    if (channel !== undefined && (record['type'] === 'snapshot' || record['type'] === 'update')) {
      const tally = this.channels.get(channel) ?? this.control;
      if (decoded.kind === 'channel') {
        tally.decoded(record['type']);
        if (decoded.message.channel === 'orderbook') this.checkBook(decoded.message, tally, raw);
      } else
        tally.departed(
          decoded.kind === 'malformed'
            ? decoded.failure
            : {
                source: `ws:${channel}`,
                field: '(frame)',
                expected: `a ${channel} frame`,
                received: 'a control frame',
              },
          raw,
        );
      return;
    }
    this.judgeControl(record, channel, decoded, raw);
  }

  private judgeControl(
    record: Record<string, unknown>,
    channel: string | undefined,
    decoded: ReturnType<typeof decodeServerFrame>,
    raw: unknown,
  ): void {
    const tally = (channel === undefined ? undefined : this.channels.get(channel)) ?? this.control;
    // A refusal is an ack with status "error" on the real wire (venue-wire.md §3), or an error frame.
    if (record['type'] === 'subscribed' && record['status'] === 'error') {
      tally.refused(typeof record['message'] === 'string' ? record['message'] : 'no message');
      return;
    }
    if (decoded.kind !== 'control') {
      tally.departed(
        decoded.kind === 'malformed'
          ? decoded.failure
          : { source: 'ws:control', field: '(frame)', expected: 'a control frame', received: 'channel data' },
        raw,
      );
      return;
    }
    const frame = decoded.frame;
    if ('type' in frame && frame.type === 'subscribed') tally.acked();
    else if ('type' in frame && frame.type === 'error') {
      const about = errorFrameChannel(frame);
      (about === undefined ? this.control : (this.channels.get(about) ?? this.control)).refused(frame.message);
      return;
    } else if (!('type' in frame) && 'status' in frame) for (const wake of this.authWaiters.splice(0)) wake(frame);
    this.control.decoded('control');
  }

  private checkBook(message: Parameters<LocalOrderBook['apply']>[0], tally: ChannelTally, raw: unknown): void {
    let book = this.books.get(message.marketId);
    if (book === undefined) {
      book = new LocalOrderBook(message.marketId, orderbookChecksumOfWire);
      this.books.set(message.marketId, book);
    }
    const result = book.apply(message);
    if (result.kind === 'checksum-mismatch')
      tally.departed(
        {
          source: 'ws:orderbook',
          field: 'checksum',
          expected: `the CRC32 of the book after the update (${result.actual})`,
          received: `number ${result.expected}`,
        },
        raw,
      );
    else if (result.kind === 'applied' && message.checksum !== undefined) tally.checksumVerified();
  }
}
