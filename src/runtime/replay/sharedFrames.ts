import { createHash } from 'node:crypto';
import type { HeaderRecord } from '../recording/recordingRecords.js';
import { streamRecordingFrames, type ReplayFrameSource, type TimedFrame } from './replayFrames.js';

/**
 * A recording's run decoded once into three flat arrays in shared memory: each frame's time, where
 * its text starts and ends, and the texts' UTF-8 bytes back to back. Worker threads receive the
 * buffers without a copy (`toShared`, `fromShared`) and each reads the frames as a replay asks for
 * them, so a sweep decompresses and parses the recording once, not once per variant.
 */
export interface SharedFramesData {
  readonly header: HeaderRecord;
  readonly count: number;
  /** Float64: receive time of frame i (unix ms). */
  readonly times: SharedArrayBuffer;
  /** Float64: byte offset of frame i's text; count + 1 entries (the last is the end). */
  readonly offsets: SharedArrayBuffer;
  readonly bytes: SharedArrayBuffer;
  /** sha256 over every frame's time and text: the recording's identity in a study. */
  readonly sha256: string;
}

/** What a pass over a recording learns even when it is too large to keep (`loadSharedFrames`). */
export interface RecordingExtent {
  readonly header: HeaderRecord;
  readonly frames: number;
  /** The first and last frame's time; the header's start when the run has no frame. */
  readonly firstMs: number;
  readonly lastMs: number;
  readonly sha256: string;
}

/** Frames a batch of `frames()` holds: as a streamed recording's chunk does, about. */
const BATCH = 256;

export class SharedFrames implements ReplayFrameSource {
  private readonly times: Float64Array;
  private readonly offsets: Float64Array;
  private readonly text: Buffer;

  private constructor(private readonly data: SharedFramesData) {
    this.times = new Float64Array(data.times);
    this.offsets = new Float64Array(data.offsets);
    this.text = Buffer.from(data.bytes);
  }

  static fromShared(data: SharedFramesData): SharedFrames {
    return new SharedFrames(data);
  }

  get header(): HeaderRecord {
    return this.data.header;
  }

  get count(): number {
    return this.data.count;
  }

  toShared(): SharedFramesData {
    return this.data;
  }

  extent(): RecordingExtent {
    const { count, header, sha256 } = this.data;
    return {
      header,
      frames: count,
      firstMs: count === 0 ? header.startedAt : this.times[0]!,
      lastMs: count === 0 ? header.startedAt : this.times[count - 1]!,
      sha256,
    };
  }

  *frames(): Iterable<readonly TimedFrame[]> {
    const { times, offsets, text } = this;
    for (let first = 0; first < this.data.count; first += BATCH) {
      const batch: TimedFrame[] = [];
      for (let i = first; i < Math.min(first + BATCH, this.data.count); i++)
        batch.push({ t: times[i]!, raw: text.toString('utf8', offsets[i], offsets[i + 1]) });
      yield batch;
    }
  }
}

/**
 * Reads the recording at `path` once: into shared memory when its frames' texts fit in `maxBytes`,
 * otherwise only its extent (a sweep's workers then stream it from disk themselves).
 */
export async function loadSharedFrames(
  path: string,
  maxBytes: number,
): Promise<{ readonly shared: SharedFrames | undefined; readonly extent: RecordingExtent }> {
  const source = await streamRecordingFrames(path);
  const hash = createHash('sha256');
  const times: number[] = [];
  let texts: Buffer[] | undefined = [];
  let bytes = 0;
  for await (const batch of source.frames()) {
    for (const frame of batch) {
      const text = Buffer.from(frame.raw, 'utf8');
      hash.update(`${frame.t}\n`).update(text).update('\n');
      times.push(frame.t);
      bytes += text.length;
      if (texts !== undefined && bytes > maxBytes) texts = undefined;
      texts?.push(text);
    }
  }
  const sha256 = hash.digest('hex');
  const { header } = source;
  const extent: RecordingExtent = {
    header,
    frames: times.length,
    firstMs: times[0] ?? header.startedAt,
    lastMs: times[times.length - 1] ?? header.startedAt,
    sha256,
  };
  if (texts === undefined) return { shared: undefined, extent };
  return { shared: SharedFrames.fromShared(packFrames(header, times, texts, bytes, sha256)), extent };
}

function packFrames(
  header: HeaderRecord,
  times: readonly number[],
  texts: readonly Buffer[],
  bytes: number,
  sha256: string,
): SharedFramesData {
  const data: SharedFramesData = {
    header,
    count: times.length,
    times: new SharedArrayBuffer(8 * times.length),
    offsets: new SharedArrayBuffer(8 * (times.length + 1)),
    bytes: new SharedArrayBuffer(bytes),
    sha256,
  };
  new Float64Array(data.times).set(times);
  const offsets = new Float64Array(data.offsets);
  const out = Buffer.from(data.bytes);
  let at = 0;
  texts.forEach((text, i) => {
    offsets[i] = at;
    text.copy(out, at);
    at += text.length;
  });
  offsets[texts.length] = at;
  return data;
}
