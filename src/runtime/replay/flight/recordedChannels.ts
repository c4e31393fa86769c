import { BehaviorSubject, Observable, share, Subject } from 'rxjs';
import type { ChannelMessages } from '../../../venue/schemas/wsFrames.js';
import type { ChannelName } from '../../../venue/schemas/wsFramesFields.js';
import { ChannelRegistry, type ChannelSink } from '../../../venue/ws/channelRegistry.js';
import type { ConnectionState } from '../../../venue/ws/connectionState.js';
import { decodeServerFrame } from '../../../venue/ws/decodeServerFrame.js';
import { OracleBlockGaps, type FramesLost } from '../../../venue/ws/oracleBlockGaps.js';

/**
 * The venue's WebSocket channels as a flight recording replays them: each recorded frame decoded
 * by the client's decoder (`decodeServerFrame`) and delivered to the subscribers of its channel
 * through the client's market filter (`ChannelRegistry`), one shared subscription per channel and
 * markets as the client keeps them; the connection's states are the recorded ones. Nothing is
 * sent: a recording cannot be asked for a fresh snapshot, so `resubscribe` does nothing (the
 * recorded bot's resubscribe brought its snapshot, and that frame is in the recording). Frames
 * lost on a connection are found as the client finds them (`OracleBlockGaps`), at the replay's time,
 * and so is each connection's first oracle frame.
 */
export class RecordedChannels {
  readonly connectionState$ = new BehaviorSubject<ConnectionState>({ status: 'connecting', connections: 0 });
  readonly framesLost$ = new Subject<FramesLost>();
  /** A connection's first oracle frame, at the replay's time (see `VenueWsClient.streamCounted$`). */
  readonly streamCounted$ = new Subject<number>();
  private readonly registry = new ChannelRegistry();
  private readonly shared = new Map<string, Observable<unknown>>();
  private readonly blockGaps = new OracleBlockGaps();

  constructor(private readonly now: () => number) {}

  channel<C extends ChannelName>(
    name: C,
    options: { readonly marketIds?: readonly number[] } = {},
  ): Observable<ChannelMessages[C]> {
    const ids = options.marketIds === undefined || options.marketIds.length === 0 ? undefined : options.marketIds;
    const key = `${name}:${ids === undefined ? '*' : [...new Set(ids)].sort((a, b) => a - b).join(',')}`;
    const cached = this.shared.get(key);
    if (cached !== undefined) return cached as Observable<ChannelMessages[C]>;
    const source = new Observable<ChannelMessages[C]>((subscriber) => {
      const sink: ChannelSink = {
        channel: name,
        marketIds: ids === undefined ? undefined : new Set(ids),
        next: (m) => subscriber.next(m as ChannelMessages[C]),
        error: (e) => subscriber.error(e),
        complete: () => subscriber.complete(),
      };
      this.registry.add(sink);
      return () => this.registry.remove(sink);
    }).pipe(share());
    this.shared.set(key, source);
    return source;
  }

  resubscribe(): void {
    // The recording holds what the venue sent after the recorded bot's own resubscribe.
  }

  /** A recorded frame: channel messages go to their subscribers; acknowledgements and auth replies are dropped. */
  deliver(text: string): void {
    const decoded = decodeServerFrame(text);
    if (decoded.kind !== 'channel') return;
    if (decoded.message.channel === 'oracle') {
      const first = !this.blockGaps.counting;
      const lost = this.blockGaps.note(decoded.message.blockNumber, this.now());
      if (first) this.streamCounted$.next(this.now());
      if (lost !== undefined) this.framesLost$.next(lost);
    }
    this.registry.deliver(decoded.message);
  }

  /** A recorded state of the connection; a new connection's first oracle frame follows nothing. */
  state(state: ConnectionState): void {
    if (state.connections !== this.connectionState$.value.connections) this.blockGaps.reset();
    this.connectionState$.next(state);
  }

  close(): void {
    this.framesLost$.complete();
    this.streamCounted$.complete();
    this.connectionState$.complete();
    this.registry.completeAll();
  }
}
