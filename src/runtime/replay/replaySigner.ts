import type { Address } from '../../core/address.js';
import type { SyncDigestSigner } from '../../protocol/digestSigner.js';
import type { Signature } from '../../protocol/signature.js';

/** A well-formed signature (r and s in range, low s) that signs nothing. */
const PLACEHOLDER: Signature = Object.freeze({ r: 1n, s: 1n, yParity: 0 });

/**
 * The session key of a replay's engine: it answers every digest with the same placeholder instead
 * of an ECDSA signature. A replay's simulator takes the replayed account's permits as signed by the
 * signer they name without recovering them (`InProcessVenue.trustSignaturesOf`), so a real
 * signature could only be thrown away; it was 4 to 8 % of a replay's CPU. For the same reason it
 * takes no permit digest (`ignoresDigest`: two keccak digests a permit). The engine still hashes
 * every action, allocates every nonce and builds every body as on a venue
 * (docs/spec-gaps/simulator.md, "Signatures in a replay"). Never for a signer a venue checks.
 */
export function placeholderSigner(address: Address): SyncDigestSigner {
  return Object.freeze({ address, ignoresDigest: true, signDigest: (): Signature => PLACEHOLDER });
}
