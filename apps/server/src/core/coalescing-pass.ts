/**
 * A background pass that never runs twice at once: `run()` while a pass runs asks for one more right after it
 * and shares the running one's promise, so many requests in a burst cost at most two passes. Used by the
 * fair-play signals and the puzzle generation (features/signals, features/puzzles).
 */
export class CoalescingPass {
  private running: Promise<number> | null = null;
  private again = false;

  /** `pass` does one pass and resolves with what it wrote (a count); it may reject (the run rejects). */
  constructor(private readonly pass: () => Promise<number>) {}

  /** Runs passes until no more was asked for; resolves with the sum of their counts. */
  run(): Promise<number> {
    if (this.running !== null) {
      this.again = true;
      return this.running;
    }
    const loop = async (): Promise<number> => {
      let written = 0;
      do {
        this.again = false;
        written += await this.pass();
      } while (this.again);
      return written;
    };
    this.running = loop().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** Resolves once no pass is running. */
  async idle(): Promise<void> {
    while (this.running !== null) await this.running.catch(() => undefined);
  }
}
