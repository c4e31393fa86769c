import { PerpbotError, type PerpbotErrorOptions } from '../../core/perpbotError.js';

/** A recording could not be written (RECORDING_WRITE) or read (RECORDING_FORMAT). */
export class RecordingError extends PerpbotError {
  constructor(message: string, options: Omit<PerpbotErrorOptions, 'code'> & { code?: 'RECORDING_FORMAT' }) {
    super(message, { ...options, code: options.code ?? 'RECORDING_WRITE' });
  }
}
