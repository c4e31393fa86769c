import { PerpbotError } from '../../core/perpbotError.js';

/**
 * A setup step that could not complete: the account never became registered, the signer did not
 * reach the expected status, or the venue refused a setup signature. Names the step and the
 * addresses involved; never a key, signature or token.
 */
export class SetupError extends PerpbotError {
  readonly step: string;

  constructor(
    step: string,
    message: string,
    options: { hints?: readonly string[]; details?: Readonly<Record<string, unknown>>; cause?: unknown } = {},
  ) {
    super(message, {
      code: `SETUP_${step.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase()}`,
      details: { step, ...(options.details ?? {}) },
      hints: options.hints ?? [],
      cause: options.cause,
    });
    this.step = step;
  }
}
