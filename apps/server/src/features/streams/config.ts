/** The NDJSON streams' settings (STREAM_*): their slice of `AppConfig`. */
import { z } from 'zod';

/** The streams' settings (docs/api.md "Streams"). */
export interface StreamsConfig {
  /** An empty line is written after this long without a line, ms (env STREAM_KEEPALIVE_MS, default 10000). */
  readonly streamKeepAliveMs: number;
  /** Streams one client address may hold open on a node at once; 429 beyond (env STREAM_MAX_PER_CLIENT, default 8). */
  readonly streamMaxPerClient: number;
  /**
   * Bytes a stream may have waiting for a slow reader; past it the stream is closed (the reader resumes with
   * `since`) (env STREAM_MAX_BUFFER_BYTES, default 1 MiB).
   */
  readonly streamMaxBufferBytes: number;
}

declare module '../../infra/config.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the streams' settings join AppConfig
  interface AppConfig extends StreamsConfig {}
}

/** The streams' slice of the configuration. */
export const STREAMS_CONFIG = z
  .object({
    STREAM_KEEPALIVE_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
    STREAM_MAX_PER_CLIENT: z.coerce.number().int().min(1).max(10_000).default(8),
    STREAM_MAX_BUFFER_BYTES: z.coerce
      .number()
      .int()
      .min(4096)
      .max(64 * 1024 * 1024)
      .default(1024 * 1024),
  })
  .transform((e): StreamsConfig => ({
    streamKeepAliveMs: e.STREAM_KEEPALIVE_MS,
    streamMaxPerClient: e.STREAM_MAX_PER_CLIENT,
    streamMaxBufferBytes: e.STREAM_MAX_BUFFER_BYTES,
  }));
