import { readRecording } from '../recording/readRecording.js';
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
  frames(): AsyncIterable<TimedFrame> | Iterable<TimedFrame>;
}

/**
 * The recording at `path` (a directory of segments or one segment) as a frame source. A directory
 * may hold segments of other runs (the recorder keeps them within its budget): only the frames of
 * the first header's run are replayed. The records are read once, as the replay asks for them.
 */
export async function streamRecordingFrames(
  path: string,
  options: Parameters<typeof readRecording>[1] = {},
): Promise<ReplayFrameSource> {
  const records = readRecording(path, options);
  const header = await firstHeader(records, path);
  let used = false;
  return {
    header,
    frames: () => {
      if (used) throw new Error('a streamed recording is read once: open it again to replay it again');
      used = true;
      return runFrames(records, header.run);
    },
  };
}

async function* runFrames(records: AsyncGenerator<RecordingRecord>, run: string): AsyncGenerator<TimedFrame> {
  let inRun = true;
  for await (const record of records) {
    if (record.type === 'header') inRun = record.run === run;
    if (inRun && record.type === 'frame' && record.src === PUBLIC_SOURCE) yield record;
  }
}

async function firstHeader(records: AsyncGenerator<RecordingRecord>, path: string): Promise<HeaderRecord> {
  const first = await records.next();
  if (first.done === true || first.value.type !== 'header') {
    await records.return(undefined);
    throw new RecordingError(`${path} does not start with a recording header`, {
      code: 'RECORDING_FORMAT',
      details: { path },
      hints: ['replay a directory or segment written by `perpbot record`'],
    });
  }
  return first.value;
}
