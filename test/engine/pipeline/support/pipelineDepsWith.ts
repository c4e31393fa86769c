import type { Clock } from '../../../../src/core/clock.js';
import { silentLogger } from '../../../../src/core/logger.js';
import { withEngineDefaults } from '../../../../src/engine/config/engineConfig.js';
import { NonceAllocator } from '../../../../src/engine/nonces/nonceAllocator.js';
import type { PipelineDeps } from '../../../../src/engine/pipeline/pipelineDeps.js';
import { NO_JOURNAL } from '../../../../src/engine/tracking/engineJournal.js';
import { fastPrivateKeySigner } from '../../../../src/protocol/nativeSigner.js';
import { SPEC_SELECTORS } from '../../../../src/protocol/selectors.js';
import { CONTEXT, SIGNER_KEY } from '../../../protocol/fixtures.js';

const ACCOUNT = '0x00000000000000000000000000000000000000a1';

/** An order id the tests' venue hands out: wide id 0xf2 in its first 8 bytes, resting id 0x79 (121). */
export const ORDER_ID = '0x00000000000000f2aa';

/** The stages' clock: a fixed instant, and sleeps that return at once. */
export const fixedClock: Clock = { now: () => 1_700_000_000_000, sleep: async () => undefined };

/**
 * What the stages of one intent need, for one permit-signing account whose nonces start at anchor
 * 10 with no bit used, with no market known, no journal, admission that answers at once and no
 * venue to read: `parts` gives the sender and tracker the test watches and replaces any of the rest.
 */
export function pipelineDepsWith(
  parts: Pick<PipelineDeps, 'sender' | 'tracker'> & Partial<PipelineDeps>,
): PipelineDeps {
  return {
    account: ACCOUNT,
    config: withEngineDefaults({}),
    selectors: SPEC_SELECTORS,
    auth: {
      mode: 'permit',
      context: () => CONTEXT,
      signer: fastPrivateKeySigner(SIGNER_KEY),
      allocator: new NonceAllocator(ACCOUNT, { anchor: 10n, bitmap: 0n }),
    },
    clock: fixedClock,
    log: silentLogger,
    journal: NO_JOURNAL,
    market: () => undefined,
    admit: async () => undefined,
    readNonceState: async () => ({ anchor: 10n, bitmap: 0n }),
    lookupRestingId: async () => undefined,
    readLandingEvidence: async () => ({ kind: 'cannot_tell', detail: 'no venue in this test' }),
    onSignerNotAuthorized: () => undefined,
    permitDeadlineSeconds: 60,
    ...parts,
  };
}
