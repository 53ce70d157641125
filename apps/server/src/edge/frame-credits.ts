/**
 * A socket's frame credits (a token bucket, as lila-ws does): up to one second's worth, refilled
 * continuously at `framesPerSecond`. A frame without a credit is refused; a second's worth of refused frames
 * in a row is a flood.
 */

/** What `FrameCredits.take` decides for one frame. */
export type CreditVerdict =
  /** The frame may be handled. */
  | 'ok'
  /** The first refused frame of a run: answer it with one `rate-limited` error frame. */
  | 'refused'
  /** A later refused frame of the run: drop it without an answer (a flood costs as little as possible). */
  | 'dropped'
  /** More than a second's worth of refused frames in a row: cut the connection. */
  | 'flood';

/** One connection's frame credits. */
export class FrameCredits {
  private credits: number;
  private creditsAt: number;
  private refused = 0;

  /** `framesPerSecond` 0 means no limit; `now` is the clock in ms (Date.now). */
  constructor(
    readonly framesPerSecond: number,
    private readonly now: () => number = Date.now,
  ) {
    this.credits = framesPerSecond;
    this.creditsAt = now();
  }

  /** Refused frames in the current run (0 after a frame is let through). */
  get refusedInRow(): number {
    return this.refused;
  }

  /** Takes one credit for a frame (refilling first) and says what to do with the frame. */
  take(): CreditVerdict {
    const rate = this.framesPerSecond;
    if (rate <= 0) return 'ok';
    const now = this.now();
    this.credits = Math.min(rate, this.credits + ((now - this.creditsAt) * rate) / 1000);
    this.creditsAt = now;
    if (this.credits >= 1) {
      this.credits -= 1;
      this.refused = 0;
      return 'ok';
    }
    this.refused++;
    if (this.refused > rate) return 'flood';
    return this.refused === 1 ? 'refused' : 'dropped';
  }
}
