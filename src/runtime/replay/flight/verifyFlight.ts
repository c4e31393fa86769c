import type { Engine } from '../../../engine/engine.js';
import type { Intent } from '../../../engine/intents/intents.js';
import type { Config } from '../../config/configSchema.js';
import type { Logger } from '../../operations/logging/createLogger.js';
import type { FrameRecord, RecordingRecord } from '../../recording/recordingRecords.js';
import { VirtualTime } from '../../../inProcess/virtualTime.js';
import { canonicalIntent } from './canonicalIntent.js';
import { BOT_SOURCE } from '../../recording/flightRecorder.js';
import { admissionPoints } from './admissionPoints.js';
import { admissionTimes } from './admissionTimes.js';
import { readFlight, type FlightRun } from './readFlight.js';
import { RecordedChannels } from './recordedChannels.js';
import { RecordedRest } from './recordedRest.js';
import { ReplayBot } from './replayBot.js';
import { ReplayCursor } from './replayCursor.js';
import { StrategyInputs, type InputOrder } from './strategyInputs.js';

/** Virtual time the replay runs on past the last record, for what the last frames set off. */
const SETTLE_MS = 1_000;
/** Frames shown before a divergence. */
const FRAMES_SHOWN = 5;

export interface VerifyFlightOptions {
  /** A flight recording: its directory (the last run in it is verified) or one segment. */
  readonly path: string;
  /** The config the recorded bot ran with (its strategies and their params are the ones replayed). */
  readonly config: Config;
  /** Where strategy modules are resolved from. */
  readonly root: string;
  readonly logger: Logger;
}

/** One intent as it was submitted: when, and what. */
export interface TimedIntent {
  readonly t: number;
  /** `canonicalIntent` of it. */
  readonly canonical: string;
}

interface RecordedIntent extends TimedIntent {
  readonly intentId: string;
  /** Its record's index in the flight. */
  readonly index: number;
}

export interface FlightDivergence {
  /** 0-based position of the first intent that differs. */
  readonly index: number;
  /** Absent: the replay emitted an intent the recorded bot did not. */
  readonly recorded?: TimedIntent;
  /** Absent: the replay did not emit this recorded intent. */
  readonly replayed?: TimedIntent;
  /** The last frames the recorded bot received before the recorded (else the replayed) intent. */
  readonly framesBefore: readonly FrameRecord[];
}

export interface FlightVerdict {
  /** The run verified (its first segment's header). */
  readonly run: string;
  readonly recordedIntents: number;
  readonly replayedIntents: number;
  readonly frames: number;
  /** Recorded REST exchanges that no replayed request asked for (the recorded bot's journal and service reads). */
  readonly unaskedExchanges: number;
  readonly divergence?: FlightDivergence;
  /** Whether the replayed strategies got the recorded inputs in the recorded order, and where not. */
  readonly inputs: InputOrder;
}

/**
 * `perpbot replay FLIGHT --verify`: re-drives the last run of a flight recording through the
 * configured strategies and the real engine (`ReplayBot`), on virtual time set to each record's
 * time in turn: the recorded frames and connection states delivered when they were received, each
 * intent given to the engine where the recorded strategy handed it over and each action admitted
 * where the recorded engine admitted it (`ReplayCursor`, `admissionPoints`; by time in a recording
 * without admitted records, `admissionTimes`), each REST request answered with its recorded answer
 * when the recording reached it (or at once, when the replay asks later than the recorded bot
 * did), the strategies started when the recorded bot started them. The intents they submit must
 * be the recorded ones, in the same order (compared by `canonicalIntent`; the engine's own intents
 * are not compared); the first that differs is the divergence. Their inputs are compared with the
 * recorded ones too (`StrategyInputs`): where a divergence would start.
 */
export async function verifyFlight(o: VerifyFlightOptions): Promise<FlightVerdict> {
  const flight = await readFlight(o.path);
  const replayed: TimedIntent[] = [];
  // Compared up to the recorded bot's `stopping`: what its shutdown sends is not a strategy's decision.
  const phase = { stopping: false };
  const recorded = recordedIntents(flight);
  const time = new VirtualTime(flight.header.startedAt);
  const points = admissionPoints(flight);
  const cursor = new ReplayCursor(flight.records, time);
  const inputs = new StrategyInputs();
  const rest = new RecordedRest();
  const channels = new RecordedChannels(() => time.now());
  const bot = await ReplayBot.create({
    config: o.config,
    root: o.root,
    time,
    rest,
    channels,
    flight: flight.header.flight,
    markets: flight.header.markets,
    // The replay's engine is made at the time the recorded one was, so its client order ids are the recorded ones.
    engineStartMs: engineStartOf(flight),
    admissionHold: admissionHold(flight, points, cursor, time),
    logger: o.logger,
    onEngine: followEngine(cursor, inputs),
    routeIntent: (intent: Intent, submit: (intent: Intent) => void) => {
      const canonical = canonicalIntent(intent);
      const recordedAt = recorded[replayed.length];
      if (!phase.stopping) replayed.push({ t: time.now(), canonical });
      // Given to the engine where the recorded strategy handed it over (every kind alike), in the
      // recorded order: the engine then waits, checks and sends as the recorded one did.
      if (recordedAt?.canonical === canonical) cursor.take(recordedAt.index, () => submit(intent));
      else submit(intent);
    },
  });
  const started = bot.start();
  // Failures surface after the run; until then it must not count as unhandled.
  started.catch(() => undefined);
  try {
    await drive(flight, { time, rest, channels, bot, started, phase, cursor, inputs, logger: o.logger });
    cursor.finish();
    await time.advance(SETTLE_MS);
  } finally {
    cursor.finish();
    rest.finish();
    await settleOnVirtualTime(time, bot.stop());
    channels.close();
  }
  await settleOnVirtualTime(time, started);
  return verdictOf(flight, recorded, replayed, rest.unasked, inputs.compare(flight));
}

/**
 * What each action waits for before the replay's engine admits it: the drive to reach where the
 * recorded engine admitted it (`admissionPoints`); in a recording without admitted records, the
 * time the recorded engine acted on it (`admissionTimes`).
 */
function admissionHold(
  flight: FlightRun,
  points: ReadonlyMap<string, number>,
  cursor: ReplayCursor,
  time: VirtualTime,
): (intent: Intent) => Promise<void> | undefined {
  if (points.size > 0)
    return (intent) => {
      const index = points.get(intent.intentId);
      return index === undefined ? undefined : cursor.hold(index);
    };
  const admittedAt = admissionTimes(flight);
  return (intent) => {
    const wait = (admittedAt.get(intent.intentId) ?? 0) - time.now();
    return wait > 0 ? time.sleep(wait).catch(() => undefined) : undefined;
  };
}

/**
 * Waits for `work`, moving virtual time on while it waits (a retry's backoff, a stop's deadline),
 * for at most a minute of it: the recording has ended, so nothing else would move it.
 */
async function settleOnVirtualTime<T>(time: VirtualTime, work: Promise<T>): Promise<T> {
  let done = false;
  const watched = work.finally(() => (done = true));
  watched.catch(() => undefined);
  for (let waited = 0; !done && waited < 60_000; waited += 100) await time.advance(100);
  if (!done) throw new Error('the replay did not settle within a minute of virtual time after the recording ended');
  return watched;
}

interface Replay {
  readonly time: VirtualTime;
  readonly rest: RecordedRest;
  readonly channels: RecordedChannels;
  readonly bot: ReplayBot;
  readonly started: Promise<void>;
  readonly phase: { stopping: boolean };
  readonly cursor: ReplayCursor;
  readonly inputs: StrategyInputs;
  readonly logger: Logger;
}

/**
 * What the replay's engine makes, told to the cursor in the keys of the records (`recordKey`), and
 * its order events and outcomes to the strategies' inputs. Followed before the strategies are.
 */
function followEngine(cursor: ReplayCursor, inputs: StrategyInputs) {
  return (engine: Engine): void => {
    engine.actions$.subscribe((intent) => cursor.made(`I ${intent.intentId}`));
    engine.admissions$.subscribe((a) => cursor.made(`A ${a.intentId}`));
    engine.orderEvents$.subscribe((e) => {
      inputs.orderEvent(e.intentId, e.type);
      cursor.made(`O ${e.intentId} ${e.type}`);
    });
    engine.outcomes$.subscribe((e) => {
      inputs.outcome(e.intentId, e.type);
      cursor.made(`R ${e.intentId}`);
    });
  };
}

/** Every record at its time, in the recorded order. */
async function drive(flight: FlightRun, r: Replay): Promise<void> {
  for (const [index, record] of flight.records.entries()) {
    await r.time.advanceTo(record.t);
    r.cursor.reach(index);
    apply(record, r);
    r.cursor.applied(index);
  }
}

function apply(record: Exclude<RecordingRecord, { type: 'header' }>, r: Replay): void {
  switch (record.type) {
    case 'frame':
      if (record.src === BOT_SOURCE) {
        r.inputs.frame(record.t, record.raw);
        r.channels.deliver(record.raw);
      }
      return;
    case 'connection':
      if (record.src === BOT_SOURCE) r.channels.state(connectionStateOf(record));
      return;
    case 'rest':
      r.rest.release(record);
      return;
    case 'marker':
      if (record.marker === 'stopping') {
        r.phase.stopping = true;
        r.inputs.stop();
      }
      r.started
        .then(() => (record.marker === 'strategies_started' ? r.bot.strategyHost?.start() : r.bot.strategyHost?.stop()))
        .catch((err: unknown) => r.logger.warn({ err }, `the replay could not take step ${record.marker}`));
      return;
    case 'connected':
    case 'gap':
    case 'intent':
    case 'outcome':
    case 'order':
    case 'admitted':
      // Written by the recorded bot, compared after the run (intents) or kept for the reader.
      return;
  }
}

function connectionStateOf(record: Extract<RecordingRecord, { type: 'connection' }>) {
  return {
    status: record.status,
    connections: record.connections,
    ...(record.reason === undefined ? {} : { reason: record.reason }),
  };
}

/**
 * When the recorded bot made its engine: the engine numbers client order ids from that time
 * (`ClientOrderIds`: start ms << 20, plus a sequence), and the venue's order frames carry them, so
 * the replay's must be the same. Read from the first placement's id; the recording's start when
 * there is none (or a strategy chose its own ids).
 */
function engineStartOf(flight: FlightRun): number {
  const startedAt = flight.header.startedAt;
  const placement = flight.records.find((r) => r.type === 'rest' && r.path.startsWith('/v1/orders/place'));
  const id = placement?.type === 'rest' ? /"client_order_id":"?(\d+)/.exec(placement.body ?? '')?.[1] : undefined;
  if (id === undefined) return startedAt;
  const ms = Number(BigInt(id) >> 20n);
  return ms >= startedAt && ms <= (placement?.t ?? startedAt) ? ms : startedAt;
}

function recordedIntents(flight: FlightRun): RecordedIntent[] {
  const recorded: RecordedIntent[] = [];
  for (const [index, record] of flight.records.entries()) {
    if (record.type === 'marker' && record.marker === 'stopping') break;
    if (record.type === 'intent' && record.origin === undefined)
      recorded.push({
        t: record.t,
        canonical: canonicalIntent(record.intent),
        intentId: typeof record.intent['intentId'] === 'string' ? record.intent['intentId'] : '',
        index,
      });
  }
  return recorded;
}

function verdictOf(
  flight: FlightRun,
  recorded: readonly TimedIntent[],
  replayed: readonly TimedIntent[],
  unasked: number,
  inputs: InputOrder,
): FlightVerdict {
  const frames: FrameRecord[] = [];
  for (const record of flight.records) if (record.type === 'frame' && record.src === BOT_SOURCE) frames.push(record);
  const base = {
    run: flight.header.run,
    recordedIntents: recorded.length,
    replayedIntents: replayed.length,
    frames: frames.length,
    unaskedExchanges: unasked,
    inputs,
  };
  const index = firstDifference(recorded, replayed);
  if (index === undefined) return base;
  const atRecorded = recorded[index];
  const atReplayed = replayed[index];
  const at = atRecorded?.t ?? atReplayed?.t ?? 0;
  return {
    ...base,
    divergence: {
      index,
      ...(atRecorded === undefined ? {} : { recorded: atRecorded }),
      ...(atReplayed === undefined ? {} : { replayed: atReplayed }),
      framesBefore: frames.filter((f) => f.t <= at).slice(-FRAMES_SHOWN),
    },
  };
}

function firstDifference(a: readonly TimedIntent[], b: readonly TimedIntent[]): number | undefined {
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i]?.canonical !== b[i]?.canonical) return i;
  return undefined;
}
