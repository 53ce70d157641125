/**
 * An allocation-free histogram for the move path (issue 58: the cost of metrics on the move path stays
 * within 5 %): `record` adds one observation to preallocated bucket counters, with no label, no object
 * and no closure per call. Registry.ts exposes it to Prometheus as a histogram read at scrape time.
 */

/** Bucket upper bounds of the commit latency, in seconds (0.5 ms … 2.5 s). */
export const COMMIT_LATENCY_BUCKETS: readonly number[] = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5,
];

/** Counts observations (seconds) into fixed buckets; read by a scrape, written by the hot path. */
export class HistogramRecorder {
  /** Observations per bucket (not cumulative); the last slot counts those above every bound. */
  private readonly counts: Float64Array;
  /** Sum of every observation, seconds. */
  sum = 0;
  /** Number of observations. */
  count = 0;

  /** `bounds`: bucket upper bounds in increasing order (seconds). */
  constructor(readonly bounds: readonly number[]) {
    this.counts = new Float64Array(bounds.length + 1);
  }

  /** Adds one observation of `seconds`. */
  record(seconds: number): void {
    const bounds = this.bounds;
    let i = 0;
    while (i < bounds.length && seconds > bounds[i]!) i++;
    this.counts[i]!++;
    this.sum += seconds;
    this.count++;
  }

  /** The cumulative count of observations ≤ each bound (Prometheus's `le` buckets, without `+Inf`). */
  cumulative(): number[] {
    let acc = 0;
    return this.bounds.map((_, i) => (acc += this.counts[i]!));
  }
}
