/**
 * Releases in reverse order what a sequence of steps acquired, as nested `try`/`finally` blocks
 * would, so a long start-up reads as a list of steps instead of a telescope of functions.
 */
export class Teardown {
  private readonly releases: (() => unknown)[] = [];

  /** Registers what undoes the step just taken; released after every step registered later. */
  add(release: () => unknown): void {
    this.releases.push(release);
  }

  /**
   * Runs `body`, then every release, last registered first, on every path. As with nested
   * `finally` blocks, a release that throws replaces the error in flight and the releases before
   * it still run; the last error is the one thrown.
   */
  async around(body: () => Promise<void>): Promise<void> {
    let failure: { readonly error: unknown } | undefined;
    try {
      await body();
    } catch (error) {
      failure = { error };
    }
    for (const release of this.releases.splice(0).reverse()) {
      try {
        await release();
      } catch (error) {
        failure = { error };
      }
    }
    if (failure !== undefined) throw failure.error;
  }
}
