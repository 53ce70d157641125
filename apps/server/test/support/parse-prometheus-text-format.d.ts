/** Types of `parse-prometheus-text-format` (the package ships none): Prometheus text → metric families. */
declare module 'parse-prometheus-text-format' {
  /** One sample of a counter or gauge. */
  interface PlainSample {
    readonly value: string;
    readonly labels?: Readonly<Record<string, string>>;
  }
  /** One histogram series: its cumulative buckets by bound, its count and sum. */
  interface HistogramSample {
    readonly buckets: Readonly<Record<string, string>>;
    readonly count: string;
    readonly sum: string;
    readonly labels?: Readonly<Record<string, string>>;
  }
  /** A metric family as parsed. */
  export interface MetricFamily {
    readonly name: string;
    readonly help: string;
    readonly type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    readonly metrics: readonly (PlainSample & Partial<HistogramSample>)[];
  }
  /** Parses Prometheus's text exposition format. Errors: throws on malformed text. */
  export default function parsePrometheusTextFormat(text: string): MetricFamily[];
}
