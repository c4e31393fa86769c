import { BOT_SOURCE } from '../../recording/flightRecorder.js';
import type { FlightRun } from './readFlight.js';

/** Frames are named by this many characters of their text. */
const FRAME_CHARS = 120;

/** How the replayed strategies' inputs compare with the recorded ones. */
export interface InputOrder {
  /** Inputs recorded up to the recorded bot's `stopping`: frames, order events and outcomes. */
  readonly recorded: number;
  /** The first input (0-based) not the recorded one; absent when all came in the recorded order. */
  readonly firstDifference?: {
    readonly index: number;
    /** Always there: the replay is compared up to the recorded inputs. */
    readonly recorded: string;
    readonly replayed?: string;
  };
}

/**
 * The inputs a flight's strategies get, in the order they get them: the venue's frames, the
 * engine's order events and outcomes (what `ctx.streams`, `ctx.orderEvents`, `ctx.outcomes` and
 * `ctx.state` are made of). A replay that feeds the strategies the recorded inputs in the recorded
 * order lets them decide as the recorded ones did; `--verify` reports the first that differs, as
 * the place to look when a flight does not replay true.
 */
export class StrategyInputs {
  private readonly replayed: string[] = [];
  private stopped = false;

  frame(t: number, raw: string): void {
    this.push(frameInput(t, raw));
  }

  orderEvent(intentId: string, type: string): void {
    this.push(`order event ${type} of ${intentId}`);
  }

  outcome(intentId: string, type: string): void {
    this.push(`outcome ${type} of ${intentId}`);
  }

  /** The recorded bot began stopping: what comes after is its shutdown's, not compared. */
  stop(): void {
    this.stopped = true;
  }

  /** The replayed inputs against the recorded ones of `flight`. */
  compare(flight: FlightRun): InputOrder {
    const recorded = recordedInputs(flight);
    for (const [index, input] of recorded.entries()) {
      const replayed = this.replayed[index];
      if (input === replayed) continue;
      return {
        recorded: recorded.length,
        firstDifference: { index, recorded: input, ...(replayed === undefined ? {} : { replayed }) },
      };
    }
    return { recorded: recorded.length };
  }

  private push(input: string): void {
    if (!this.stopped) this.replayed.push(input);
  }
}

function recordedInputs(flight: FlightRun): string[] {
  const inputs: string[] = [];
  for (const record of flight.records) {
    if (record.type === 'marker' && record.marker === 'stopping') break;
    if (record.type === 'frame' && record.src === BOT_SOURCE) inputs.push(frameInput(record.t, record.raw));
    else if (record.type === 'order')
      inputs.push(`order event ${String(record.event['type'])} of ${String(record.event['intentId'])}`);
    else if (record.type === 'outcome')
      inputs.push(`outcome ${String(record.outcome['type'])} of ${String(record.outcome['intentId'])}`);
  }
  return inputs;
}

function frameInput(t: number, raw: string): string {
  return `frame of ${new Date(t).toISOString()} ${raw.slice(0, FRAME_CHARS)}`;
}
