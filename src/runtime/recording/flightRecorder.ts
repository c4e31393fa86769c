import { dirname, join, resolve } from 'node:path';
import { Subscription, type Observable } from 'rxjs';
import type { Clock } from '../../core/clock.js';
import type { ActionAdmission } from '../../engine/admission/admissionScope.js';
import type { IntentOutcome } from '../../engine/intents/intentOutcome.js';
import type { Intent } from '../../engine/intents/intents.js';
import type { OrderEvent } from '../../engine/orders/orderEvent.js';
import type { RestExchangeObserver } from '../../venue/rest/restExchange.js';
import type { ConnectionState } from '../../venue/ws/connectionState.js';
import { PUBLIC_CHANNELS } from '../../venue/schemas/wsFramesFields.js';
import type { Config } from '../config/configSchema.js';
import type { Logger } from '../operations/logging/createLogger.js';
import type { MarkerRecord } from './recordingRecords.js';
import { RecordingWriter } from './recordingWriter.js';
import { recordingLimits } from './recordingLimits.js';

/** The source of the frames and connection states of the bot's one WebSocket connection. */
export const BOT_SOURCE = 'bot';

export interface FlightRecorderOptions {
  readonly config: Config;
  /** Where a relative journal path or `recorder.flight_dir` is resolved from. */
  readonly root: string;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly venue: { readonly restUrl: string; readonly wsUrl: string };
  readonly markets: readonly number[];
  readonly account: string;
  readonly signer: string;
  readonly runId: string;
}

/** What the recorder follows of the engine and the strategies' execution port. */
export interface FlightEngineStreams {
  readonly outcomes: Observable<IntentOutcome>;
  readonly orderEvents: Observable<OrderEvent>;
  /** Every intent the engine runs, the strategies' and its own (`Engine.actions$`). */
  readonly actions?: Observable<Intent>;
  /** Every action the engine's admission let through (`Engine.admissions$`). */
  readonly admissions?: Observable<ActionAdmission>;
}

/**
 * A running bot's flight recorder (`recorder.enabled`): into `recorder.flight_dir` (default
 * `flight/` beside the journal), within `recorder.max_disk_mb`, the frames of its WebSocket
 * connection (public and private), every REST exchange, and every intent, outcome and order
 * event, so `perpbot replay FLIGHT --verify` can re-drive the run. The venue layer tells it of
 * frames and exchanges through its observer hooks (`onFrame`, `onExchange`). A failed write is
 * logged and ends the recording, never the run.
 */
export class FlightRecorder {
  private readonly subscriptions = new Subscription();
  /** Intents a strategy handed over, recorded as such, until the engine runs them. */
  private readonly routed = new Set<string>();

  private constructor(private readonly writer: RecordingWriter) {}

  /** The recorder when `recorder.enabled`, else undefined. */
  static async open(o: FlightRecorderOptions): Promise<FlightRecorder | undefined> {
    if (!o.config.recorder.enabled) return undefined;
    const dir = flightDir(o.config, o.root);
    const writer = await RecordingWriter.open({
      dir,
      clock: o.clock,
      description: {
        venue: { profile: o.config.venue.profile, restUrl: o.venue.restUrl, wsUrl: o.venue.wsUrl },
        markets: [...o.markets],
        channels: [...PUBLIC_CHANNELS],
        flight: { account: o.account, signer: o.signer, runId: o.runId },
      },
      limits: recordingLimits(o.config),
      onDeleted: (paths) => o.logger.info({ paths }, 'flight recordings deleted to stay within recorder.max_disk_mb'),
      onError: (err) => o.logger.warn({ err }, 'the flight recording failed; the bot goes on unrecorded'),
    });
    o.logger.info({ dir, segment: writer.currentPath }, 'flight recorder on');
    return new FlightRecorder(writer);
  }

  /** The REST client's observer: every exchange, written when its answer came. */
  readonly onExchange: RestExchangeObserver = (exchange) => this.writer.rest(exchange);

  /** The WebSocket client's observer: every frame of the connection as received. */
  readonly onFrame = (text: string): void => this.writer.frame(BOT_SOURCE, text);

  /** What a strategy submitted, recorded before the engine sees it. */
  readonly routeIntent = (intent: Intent, submit: (intent: Intent) => void): void => {
    this.writer.engineRecord('intent', intent);
    this.routed.add(intent.intentId);
    submit(intent);
  };

  /** The states of the bot's WebSocket connection (a replay gives the engine the same ones). */
  followConnection(states: Observable<ConnectionState>): void {
    this.subscriptions.add(states.subscribe((s) => this.writer.connection(BOT_SOURCE, s)));
  }

  followEngine(streams: FlightEngineStreams): void {
    this.subscriptions.add(streams.outcomes.subscribe((o) => this.writer.engineRecord('outcome', o)));
    this.subscriptions.add(streams.orderEvents.subscribe((e) => this.writer.engineRecord('order', e)));
    // The engine's own intents, so a replay acts on them when the recorded engine did.
    if (streams.actions !== undefined)
      this.subscriptions.add(
        streams.actions.subscribe((intent) => {
          if (!this.routed.delete(intent.intentId)) this.writer.engineRecord('intent', intent, 'engine');
        }),
      );
    // When each action was admitted: a replay admits it then too (see `admissionPoints`).
    if (streams.admissions !== undefined)
      this.subscriptions.add(streams.admissions.subscribe((a) => this.writer.admitted(a.intentId, a.atMs)));
  }

  marker(marker: MarkerRecord['marker']): void {
    this.writer.marker(marker);
  }

  /** Never rejects: a failed recording was logged when it failed (`onError`), and the run's end is the run's. */
  async close(): Promise<void> {
    this.subscriptions.unsubscribe();
    await this.writer.close().catch(() => undefined);
  }
}

/** `recorder.flight_dir`, else `flight/` beside the journal. */
export function flightDir(config: Config, root: string): string {
  const configured = config.recorder.flight_dir;
  return configured === undefined
    ? join(dirname(resolve(root, config.journal.path)), 'flight')
    : resolve(root, configured);
}
