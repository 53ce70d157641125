/**
 * The server's Prometheus metrics (issue 58; docs/operations.md lists them): one prom-client `Registry`
 * per app, decorated as `app.metrics` (edge/plugins/metrics.ts). Features and the edge register what they
 * measure here; most figures are gauges and counters read at scrape time (`collect`), so that nothing is
 * computed on the move path. Metrics are collected only when `enabled` (METRICS_PORT set): otherwise the
 * registry still exists but no hot-path observer is installed and Node's process metrics are not sampled.
 *
 * Names follow Prometheus's conventions: `klondike_` prefix, base units (seconds), `_total` counters;
 * label values are bounded sets (route patterns, lanes, presets), never user input.
 */
import {
  Counter,
  Gauge,
  Histogram,
  type MetricObjectWithValues,
  type MetricType,
  type MetricValueWithName,
  Registry,
  collectDefaultMetrics,
} from 'prom-client';
import { HistogramRecorder } from './recorder.js';

/** Prefix of every metric of the server (Node's process metrics keep prom-client's names). */
export const METRIC_PREFIX = 'klondike_';

/** A value per label value, read at scrape time (e.g. `[['interactive', 2], ['background', 0]]`). */
export type LabelledValues = Iterable<readonly [string, number]>;

/** A reader of a figure at scrape time: a number, or a promise of one (a database count). */
type Read<T> = () => T | Promise<T>;

/** prom-client's type name of a histogram (its `MetricType` enum exists only in its type declarations). */
const HISTOGRAM = 'histogram' as unknown as MetricType.Histogram;

/** A histogram whose counts live in a `HistogramRecorder` (the move path writes them; a scrape reads them). */
class RecordedHistogram extends Histogram {
  constructor(
    private readonly metricName: string,
    private readonly metricHelp: string,
    private readonly recorder: HistogramRecorder,
  ) {
    super({ name: metricName, help: metricHelp, buckets: [...recorder.bounds], registers: [] });
  }

  /** The exported values: cumulative buckets, `+Inf`, sum and count. */
  private values(): MetricValueWithName<string>[] {
    const bucket = `${this.metricName}_bucket`;
    const r = this.recorder;
    const cumulative = r.cumulative();
    return [
      ...r.bounds.map((le, i) => ({ labels: { le }, value: cumulative[i]!, metricName: bucket })),
      { labels: { le: '+Inf' }, value: r.count, metricName: bucket },
      { labels: {}, value: r.sum, metricName: `${this.metricName}_sum` },
      { labels: {}, value: r.count, metricName: `${this.metricName}_count` },
    ];
  }

  /** See prom-client's `Histogram.get`: the recorder's counts. */
  // eslint-disable-next-line @typescript-eslint/require-await -- prom-client's signature is async
  override async get(): Promise<MetricObjectWithValues<MetricValueWithName<string>>> {
    return {
      name: this.metricName,
      help: this.metricHelp,
      type: HISTOGRAM,
      values: this.values(),
      aggregator: 'sum',
      collect: () => undefined,
    };
  }

  /** What the registry prints (prom-client prefers this method to `get` when present). */
  getForPromString(): Promise<MetricObjectWithValues<MetricValueWithName<string>>> {
    return this.get();
  }
}

/** The app's metrics: a registry, and helpers to register figures read at scrape time. */
export class Metrics {
  /** prom-client's registry of this app (its text is what `/metrics` answers). */
  readonly registry = new Registry();

  /** `enabled`: METRICS_PORT is set (Node's process metrics are sampled, hot-path observers installed). */
  constructor(readonly enabled: boolean) {
    if (enabled) collectDefaultMetrics({ register: this.registry });
  }

  /** A gauge read at scrape time. `name` without the prefix. */
  gauge(name: string, help: string, read: Read<number>): void {
    new Gauge({
      name: METRIC_PREFIX + name,
      help,
      registers: [this.registry],
      async collect() {
        this.set(await read());
      },
    });
  }

  /** A gauge with one label, each value read at scrape time (label values must be a bounded set). */
  gaugeByLabel(name: string, help: string, label: string, read: Read<LabelledValues>): void {
    new Gauge({
      name: METRIC_PREFIX + name,
      help,
      labelNames: [label],
      registers: [this.registry],
      async collect() {
        const values = await read();
        this.reset();
        for (const [value, n] of values) this.set({ [label]: value }, n);
      },
    });
  }

  /** A counter whose running total is kept elsewhere (a plain number field) and read at scrape time. */
  counter(name: string, help: string, read: () => number): void {
    new Counter({
      name: METRIC_PREFIX + name,
      help,
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(read());
      },
    });
  }

  /** A counter with one label, each running total read at scrape time. */
  counterByLabel(name: string, help: string, label: string, read: () => LabelledValues): void {
    new Counter({
      name: METRIC_PREFIX + name,
      help,
      labelNames: [label],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [value, n] of read()) this.inc({ [label]: value }, n);
      },
    });
  }

  /** A histogram observed off the move path (HTTP requests, solver waits), with bounded labels. */
  histogram<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    buckets: readonly number[],
  ): Histogram<L> {
    return new Histogram<L>({
      name: METRIC_PREFIX + name,
      help,
      labelNames: [...labelNames],
      buckets: [...buckets],
      registers: [this.registry],
    });
  }

  /** A histogram fed by an allocation-free recorder (the move path); returns the recorder to write. */
  recorded(name: string, help: string, bounds: readonly number[]): HistogramRecorder {
    const recorder = new HistogramRecorder(bounds);
    this.registry.registerMetric(new RecordedHistogram(METRIC_PREFIX + name, help, recorder));
    return recorder;
  }

  /** The Prometheus text exposition of every metric (format 0.0.4). */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  /** The content type of `text()`. */
  get contentType(): string {
    return this.registry.contentType;
  }
}
