import type { SimResponse } from './simRoute.js';

/**
 * Signed actions (POST requests) the simulator refused as malformed, counted on the venue's side
 * so a run can be audited without trusting the client's own account of its errors: a
 * `SignerNotAuthorized` revert (the recovered signer is not the account's: a wrong type string,
 * width or domain) or an `InvalidArgument` answer (a body the venue could not take).
 */
export interface RefusedActions {
  readonly signerNotAuthorized: number;
  readonly invalidArgument: number;
  /** The first refusals, `METHOD path: message`, so a report can say what was wrong. */
  readonly samples: readonly string[];
}

const MAX_SAMPLES = 20;

interface Counts {
  signerNotAuthorized: number;
  invalidArgument: number;
  samples: string[];
}

// Keyed by the simulator's runtime (the `context` startSim returns), so nothing is global.
const countsBySim = new WeakMap<object, Counts>();

function countsOf(sim: object): Counts {
  let counts = countsBySim.get(sim);
  if (counts === undefined) {
    counts = { signerNotAuthorized: 0, invalidArgument: 0, samples: [] };
    countsBySim.set(sim, counts);
  }
  return counts;
}

/** Called with every answer the REST server sends; counts malformed-action refusals of POSTs. */
export function noteRefusedAction(
  sim: object,
  method: string | undefined,
  path: string | undefined,
  response: SimResponse,
): void {
  if (method !== 'POST' || response.status < 400 || response.status >= 500) return;
  const error = response.body['error'];
  if (error === null || typeof error !== 'object') return;
  const code = fieldText(error, 'code');
  const message = fieldText(error, 'message');
  const counts = countsOf(sim);
  // "permit signature mismatch" is the venue's wording of the same refusal for account actions.
  if (message.includes('SignerNotAuthorized') || message.includes('permit signature mismatch'))
    counts.signerNotAuthorized += 1;
  else if (code === 'InvalidArgument') counts.invalidArgument += 1;
  else return;
  if (counts.samples.length < MAX_SAMPLES) counts.samples.push(`POST ${(path ?? '').split('?')[0] ?? ''}: ${message}`);
}

/** The server writes `code` and `message` as strings; anything else counts as no text. */
function fieldText(error: object, key: 'code' | 'message'): string {
  const value = (error as Record<string, unknown>)[key];
  return typeof value === 'string' ? value : '';
}

/** What a running simulator (its `context`) has refused so far. */
export function refusedActions(sim: object): RefusedActions {
  const counts = countsOf(sim);
  return {
    signerNotAuthorized: counts.signerNotAuthorized,
    invalidArgument: counts.invalidArgument,
    samples: [...counts.samples],
  };
}
