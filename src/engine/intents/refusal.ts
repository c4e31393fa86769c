import { rejection, type Rejection, type RejectionRule } from './rejection.js';

/**
 * Control flow inside the checks: a rule that fails throws `Refusal`, and the public entry point
 * turns it into a `{ ok: false, rejection }` verdict. It never escapes the engine's pure core.
 */
export class Refusal extends Error {
  readonly rejection: Rejection;

  constructor(refused: Rejection) {
    super(`${refused.rule}: ${refused.reason}`);
    this.name = 'Refusal';
    this.rejection = refused;
  }
}

export function refuse(rule: RejectionRule, value: unknown, reason: string, ...hints: string[]): never {
  throw new Refusal(rejection(rule, value, reason, ...hints));
}
