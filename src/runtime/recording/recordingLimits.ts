import type { NonTradingConfig } from '../config/configSchema.js';
import type { RecordingLimits } from './recordingWriter.js';

const MB = 1024 * 1024;

/** The writer's limits from the config's `recorder:` block. */
export function recordingLimits(config: NonTradingConfig): RecordingLimits {
  return {
    segmentBytes: config.recorder.segment_mb * MB,
    segmentMs: config.recorder.segment_minutes * 60_000,
    maxDiskBytes: config.recorder.max_disk_mb * MB,
  };
}
