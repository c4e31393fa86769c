import { wireFailureShapeKey, type WireDecodeFailure } from '../../../venue/wireDecodeFailure.js';
import { departureDetail, type ProbeRow } from './probeRow.js';
import type { SaveSample } from './probeRest.js';

/** What one channel (or the control frames) did during the probe. */
export class ChannelTally {
  private ack: { kind: 'pending' } | { kind: 'acked' } | { kind: 'refused'; message: string } = { kind: 'pending' };
  private frames = 0;
  private snapshots = 0;
  private checksums = 0;
  private readonly departures = new Map<string, { failure: WireDecodeFailure; raw: unknown; count: number }>();
  private skippedBecause: string | undefined;

  constructor(
    readonly name: string,
    /** Control frames need no ack. */
    private readonly needsAck: boolean,
  ) {}

  acked(): void {
    if (this.ack.kind === 'pending') this.ack = { kind: 'acked' };
  }

  refused(message: string): void {
    this.ack = { kind: 'refused', message };
  }

  skip(reason: string): void {
    this.skippedBecause = reason;
  }

  decoded(kind: 'snapshot' | 'update' | 'control'): void {
    this.frames++;
    if (kind === 'snapshot') this.snapshots++;
  }

  checksumVerified(): void {
    this.checksums++;
  }

  departed(failure: WireDecodeFailure, raw: unknown): void {
    const key = wireFailureShapeKey(failure);
    const seen = this.departures.get(key);
    if (seen === undefined) this.departures.set(key, { failure, raw, count: 1 });
    else seen.count++;
  }

  /** The row, with a sample saved for the first departure. */
  async row(saveSample: SaveSample, waitedMs: number): Promise<ProbeRow> {
    const base = { kind: 'ws' as const, name: this.name };
    if (this.skippedBecause !== undefined) return { ...base, status: 'skipped', detail: this.skippedBecause };
    const first = [...this.departures.values()][0];
    if (first !== undefined) {
      const sample = await saveSample(first.failure, first.raw);
      const more = this.departures.size > 1 ? `; and ${this.departures.size - 1} other shape(s)` : '';
      return {
        ...base,
        status: 'departed',
        detail: `${departureDetail(first.failure, first.count)}${more}`,
        failure: first.failure,
        ...(sample === undefined ? {} : { sample }),
      };
    }
    if (this.ack.kind === 'refused')
      return { ...base, status: 'failed', detail: `subscribe refused: ${this.ack.message}` };
    if (this.needsAck && this.ack.kind === 'pending')
      return { ...base, status: 'failed', detail: `no subscribe ack within ${Math.round(waitedMs / 1000)} s` };
    return { ...base, status: 'ok', detail: this.countsText() };
  }

  private countsText(): string {
    const parts = [`${this.needsAck ? 'acked, ' : ''}${this.frames} frame(s) decoded`];
    if (this.snapshots > 0) parts.push(`${this.snapshots} snapshot(s)`);
    if (this.checksums > 0) parts.push(`${this.checksums} checksum(s) verified`);
    if (this.needsAck && this.frames === 0) parts.push('silent, which is fine');
    return parts.join(', ');
  }
}
