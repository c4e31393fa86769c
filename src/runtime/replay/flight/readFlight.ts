import { PerpbotError } from '../../../core/perpbotError.js';
import { readRecording } from '../../recording/readRecording.js';
import type { HeaderRecord, RecordingRecord } from '../../recording/recordingRecords.js';

/** One bot run of a flight recording: its first header and every record after the headers, in order. */
export interface FlightRun {
  readonly header: HeaderRecord & { readonly flight: NonNullable<HeaderRecord['flight']> };
  readonly records: readonly Exclude<RecordingRecord, HeaderRecord>[];
}

/**
 * The last bot run in a flight recording (a directory of segments, where each `perpbot start`
 * adds a run, or one segment file): the run an operator replays after an incident.
 */
export async function readFlight(path: string): Promise<FlightRun> {
  const runs = new Map<string, { header: HeaderRecord; records: Exclude<RecordingRecord, HeaderRecord>[] }>();
  let current: { header: HeaderRecord; records: Exclude<RecordingRecord, HeaderRecord>[] } | undefined;
  for await (const record of readRecording(path)) {
    if (record.type === 'header') {
      current = runs.get(record.run);
      if (current === undefined) runs.set(record.run, (current = { header: record, records: [] }));
    } else current?.records.push(record);
  }
  const last = [...runs.values()].at(-1);
  const flight = last?.header.flight;
  if (last === undefined || flight === undefined) {
    throw new PerpbotError(`${path} holds no flight recording`, {
      code: 'RECORDING_FORMAT',
      details: { path, runs: runs.size },
      hints: [
        'a flight recording is written by `perpbot start` with recorder.enabled: true (into flight/ beside the journal)',
        '`perpbot record` writes public market data, which replays without --verify',
      ],
    });
  }
  return { header: { ...last.header, flight }, records: last.records };
}
