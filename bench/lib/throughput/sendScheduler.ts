/**
 * Which pre-signed request may go next on a free connection. Requests go strictly in list order;
 * the head waits when sending it now would make the venue refuse it:
 * - a request with a newer nonce anchor waits until every request of an older anchor has been
 *   answered (the venue moves its current anchor on the first permit of the next one, and then
 *   refuses the older anchor's permits still in flight: spec "Nonces");
 * - the cancel of pair p waits until p + 1 places of the slice have succeeded. The venue numbers
 *   orders in the order it processes them and only this account places orders, so by then order
 *   number `base + p` exists and rests, whichever connection carried its place.
 */
export interface ScheduledRequest {
  readonly kind: 'place' | 'cancel';
  readonly pair: number;
  /** The nonce anchor (below 2^48, so exact as a number). */
  readonly anchor: number;
}

export class SendScheduler {
  private head = 0;
  private answeredCount = 0;
  private placesOk = 0;
  /** In-flight requests per anchor. */
  private readonly inFlight = new Map<number, number>();

  constructor(private readonly requests: readonly ScheduledRequest[]) {}

  /** The index of the request to send now, or undefined when the head must wait (or all went). */
  next(): number | undefined {
    const request = this.requests[this.head];
    if (request === undefined) return undefined;
    for (const anchor of this.inFlight.keys()) if (anchor < request.anchor) return undefined;
    if (request.kind === 'cancel' && this.placesOk <= request.pair) return undefined;
    this.inFlight.set(request.anchor, (this.inFlight.get(request.anchor) ?? 0) + 1);
    return this.head++;
  }

  answered(index: number, ok: boolean): void {
    const request = this.requests[index];
    if (request === undefined) throw new RangeError(`no request ${index}`);
    const left = (this.inFlight.get(request.anchor) ?? 1) - 1;
    if (left > 0) this.inFlight.set(request.anchor, left);
    else this.inFlight.delete(request.anchor);
    this.answeredCount++;
    if (ok && request.kind === 'place') this.placesOk++;
  }

  /** Every request was sent and answered. */
  get done(): boolean {
    return this.answeredCount === this.requests.length;
  }

  /** Nothing in flight and the head still cannot go: a failed place left its cancel waiting for ever. */
  get stuck(): boolean {
    if (this.done || this.head >= this.requests.length) return false;
    return this.inFlight.size === 0;
  }
}
