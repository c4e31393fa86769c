import { readRecordingChunks } from '../recording/readRecording.js';
import { PUBLIC_SOURCE } from '../recording/recordPublicFeeds.js';
import { RecordingError } from '../recording/recordingError.js';
import type { HeaderRecord, RecordingRecord } from '../recording/recordingRecords.js';

/** One public frame of a recording: its receive time (unix ms) and its text as received. */
export interface TimedFrame {
  readonly t: number;
  readonly raw: string;
}

/**
 * What a replay drives: the run of a recording's first header, and that run's public frames in
 * order. Either streamed from the segments (`streamRecordingFrames`: nothing held in memory) or
 * read from a recording decoded once into memory (`SharedFrames`: what a sweep's workers share).
 */
export interface ReplayFrameSource {
  readonly header: HeaderRecord;
  /** The frames in batches (a few hundred), in order: what a replay reads, a batch per turn. */
  frames(): AsyncIterable<readonly TimedFrame[]> | Iterable<readonly TimedFrame[]>;
}

/**
 * The recording at `path` (a directory of segments or one segment) as a frame source. A directory
 * may hold segments of other runs (the recorder keeps them within its budget): only the frames of
 * the first header's run are replayed. The records are read once, as the replay asks for them.
 */
export async function streamRecordingFrames(
  path: string,
  options: Parameters<typeof readRecordingChunks>[1] = {},
): Promise<ReplayFrameSource> {
  const chunks = readRecordingChunks(path, options);
  const { header, rest } = await firstHeader(chunks, path);
  let used = false;
  return {
    header,
    frames: () => {
      if (used) throw new Error('a streamed recording is read once: open it again to replay it again');
      used = true;
      return runFrames(rest, chunks, header.run);
    },
  };
}

/** The public frames of `run`: those of the chunk the header came in, then those of the chunks after it. */
async function* runFrames(
  first: readonly RecordingRecord[],
  chunks: AsyncGenerator<readonly RecordingRecord[]>,
  run: string,
): AsyncGenerator<readonly TimedFrame[]> {
  let inRun = true;
  const framesOf = (records: readonly RecordingRecord[]): TimedFrame[] => {
    const frames: TimedFrame[] = [];
    for (const record of records) {
      if (record.type === 'header') inRun = record.run === run;
      if (inRun && record.type === 'frame' && record.src === PUBLIC_SOURCE) frames.push(record);
    }
    return frames;
  };
  try {
    const head = framesOf(first);
    if (head.length > 0) yield head;
    for await (const records of chunks) {
      const frames = framesOf(records);
      if (frames.length > 0) yield frames;
    }
  } finally {
    await chunks.return(undefined);
  }
}

/** The recording's first record, which must be a header, and the records that came with it. */
async function firstHeader(
  chunks: AsyncGenerator<readonly RecordingRecord[]>,
  path: string,
): Promise<{ header: HeaderRecord; rest: readonly RecordingRecord[] }> {
  const first = await chunks.next();
  const header = first.done === true ? undefined : first.value[0];
  if (first.done === true || header?.type !== 'header') {
    await chunks.return(undefined);
    throw new RecordingError(`${path} does not start with a recording header`, {
      code: 'RECORDING_FORMAT',
      details: { path },
      hints: ['replay a directory or segment written by `perpbot record`'],
    });
  }
  return { header, rest: first.value.slice(1) };
}
