import { InvalidValueError } from '../../core/invalidValueError.js';
import type { RestCallOptions } from './restTransport.js';

/**
 * A trading action is authorised by exactly one of a permit or a JWT. Sending both leaks a token
 * to a permit endpoint; sending neither is a certain refusal after a round trip.
 */
export function checkTradingAuth(endpoint: string, permit: unknown, options: RestCallOptions | undefined): void {
  const hasPermit = permit !== undefined;
  const hasBearer = options?.bearer !== undefined;
  if (hasPermit && hasBearer) {
    throw new InvalidValueError(
      `${endpoint} authorisation`,
      'permit and bearer',
      'a permit or a JWT bearer, not both',
      'drop options.bearer for permit calls',
    );
  }
  if (!hasPermit && !hasBearer) {
    throw new InvalidValueError(
      `${endpoint} authorisation`,
      'none',
      'a permit or a JWT bearer',
      'sign a permit, or log in and pass options.bearer',
    );
  }
}
