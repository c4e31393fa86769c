import { PerpbotError, type PerpbotErrorOptions } from '../../core/perpbotError.js';

/**
 * A recording could not be written (RECORDING_WRITE) or read (RECORDING_FORMAT), its reading was
 * stopped (RECORDING_STOPPED), or it held frames a replay could not use (RECORDING_FRAMES).
 */
export class RecordingError extends PerpbotError {
  constructor(
    message: string,
    options: Omit<PerpbotErrorOptions, 'code'> & {
      code?: 'RECORDING_FORMAT' | 'RECORDING_STOPPED' | 'RECORDING_FRAMES';
    },
  ) {
    super(message, { ...options, code: options.code ?? 'RECORDING_WRITE' });
  }
}
