/**
 * The venue's market ids as last read (GET /v1/markets through `knownMarketIds`). The read is
 * asynchronous but a subscribe ack is checked synchronously, in order, as it arrives; the ack
 * check uses the last list read, which every filtered subscription refreshes before it is sent.
 */
export class VenueMarketList {
  private last: readonly number[] | undefined;

  constructor(private readonly load: () => Promise<readonly number[]>) {}

  /** Reads the list afresh and remembers it. */
  readonly read = async (): Promise<readonly number[]> => {
    const ids = await this.load();
    this.last = [...ids];
    return this.last;
  };

  /** The list of the last successful read; undefined before the first. */
  get latest(): readonly number[] | undefined {
    return this.last;
  }
}
