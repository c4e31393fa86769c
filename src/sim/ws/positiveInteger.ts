import { InvalidValueError } from '../../core/invalidValueError.js';

/** The WebSocket server's settings and stall lengths are whole positive milliseconds or counts. */
export function positiveInteger(value: number, field: string): number {
  if (!Number.isInteger(value) || value <= 0) throw new InvalidValueError(field, value, 'a positive integer');
  return value;
}
