import { screamingSnake } from '../../core/errorCodes.js';
import { PerpbotError } from '../../core/perpbotError.js';

/** The setup steps that can fail; each is its error's code, `SETUP_` + the step in capitals. */
export type SetupStep =
  'start' | 'confirmStatus' | 'registration' | 'registerSigner' | 'approveSingle' | 'revokeSigner';

/**
 * A setup step that could not complete: the account never became registered, the signer did not
 * reach the expected status, or the venue refused a setup signature. Names the step and the
 * addresses involved; never a key, signature or token.
 */
export class SetupError extends PerpbotError {
  readonly step: SetupStep;

  constructor(
    step: SetupStep,
    message: string,
    options: { hints?: readonly string[]; details?: Readonly<Record<string, unknown>>; cause?: unknown } = {},
  ) {
    super(message, {
      code: `SETUP_${screamingSnake(step)}`,
      details: { step, ...(options.details ?? {}) },
      hints: options.hints ?? [],
      cause: options.cause,
    });
    this.step = step;
  }
}
