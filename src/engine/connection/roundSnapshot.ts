import type { VenueSnapshot } from '../../venue/state/venueSnapshot.js';

/**
 * The venue as read once for one reconnect: every reconciler of the round (the engine's, the
 * journal's) compares with the same read, so open orders, positions and balance are read once per
 * reconnect, not once per reconciler. The first ask reads; later asks share it. A read that failed
 * is forgotten (the next ask reads again), and a retry that must not judge by an older read asks
 * for a fresh one.
 */
export class RoundSnapshot {
  private read: Promise<VenueSnapshot> | undefined;

  constructor(private readonly reader: () => Promise<VenueSnapshot>) {}

  /** The round's read; `fresh`: a new one (which later asks then share). */
  snapshot(options: { readonly fresh?: boolean } = {}): Promise<VenueSnapshot> {
    if (this.read === undefined || options.fresh === true) {
      const read = this.reader();
      this.read = read;
      read.catch(() => {
        if (this.read === read) this.read = undefined;
      });
    }
    return this.read;
  }
}
