/**
 * One NDJSON response (docs/api.md "Streams"): `application/x-ndjson`, one JSON object a line, an empty line
 * as a keep-alive after `keepAliveMs` without a line, and the hub that caps the streams of one client and
 * ends them all when the server shuts down.
 *
 * Backpressure: a line is written at once while the reader keeps up; a reader that lets more than
 * `maxBufferBytes` pile up is cut off (its response is destroyed) rather than held in memory without end —
 * every stream resumes (a game's with `since`, an export is idempotent). `drained()` lets a writer of many
 * lines (an export) wait for the reader instead.
 */
import type { ServerResponse } from 'node:http';
import { NDJSON_MEDIA_TYPE } from '@klondike/protocol';
import { ApiError } from '../../infra/errors.js';

/** How a stream behaves (the streams' settings). */
export interface NdjsonOptions {
  /** ms without a line after which an empty line is written. */
  readonly keepAliveMs: number;
  /** Bytes waiting for the reader past which the stream is cut off. */
  readonly maxBufferBytes: number;
}

/** The end line a stream closed by the server writes last (StreamEndLineSchema). */
const SHUTDOWN_LINE = JSON.stringify({ type: 'end', reason: 'shutdown' });

/** One open NDJSON response. `onClose` callbacks run once, whoever closed it (reader, server, overflow). */
export class NdjsonStream {
  private timer: NodeJS.Timeout | undefined;
  private done = false;
  private readonly closers: (() => void)[] = [];

  /**
   * Starts the response: status 200 with `headers` (those Fastify's hooks set: request id, rate limits) and
   * the stream's own, then keep-alives.
   */
  constructor(
    private readonly raw: ServerResponse,
    private readonly options: NdjsonOptions,
    headers: Readonly<Record<string, string | number | string[] | undefined>>,
  ) {
    const clean = Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== undefined)) as Record<
      string,
      string | number | string[]
    >;
    raw.writeHead(200, {
      ...clean,
      'content-type': `${NDJSON_MEDIA_TYPE}; charset=utf-8`,
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
    });
    raw.flushHeaders();
    raw.on('close', () => this.finish());
    this.arm();
  }

  /** Whether the stream is over (ended, or its reader went away). */
  get closed(): boolean {
    return this.done;
  }

  /** Runs `fn` once when the stream closes (at once when it has). */
  onClose(fn: () => void): void {
    if (this.done) fn();
    else this.closers.push(fn);
  }

  /**
   * Writes one line (JSON text without its newline). Returns false when the stream is closed or was just
   * cut off for a reader too slow (more than `maxBufferBytes` waiting).
   */
  line(json: string): boolean {
    if (this.done) return false;
    this.raw.write(`${json}\n`);
    if (this.raw.writableLength > this.options.maxBufferBytes) {
      this.raw.destroy();
      this.finish();
      return false;
    }
    this.arm();
    return true;
  }

  /** Resolves once the reader has taken what was written (or the stream closed): for writers of many lines. */
  drained(): Promise<void> {
    if (this.done || !this.raw.writableNeedDrain) return Promise.resolve();
    return new Promise((resolve) => {
      const go = (): void => {
        this.raw.off('drain', go);
        resolve();
      };
      this.raw.on('drain', go);
      this.onClose(go);
    });
  }

  /** Writes `last` (when given) and ends the response cleanly. */
  end(last?: string): void {
    if (this.done) return;
    if (last !== undefined) this.raw.write(`${last}\n`);
    this.raw.end();
    this.finish();
  }

  /** Ends the stream with a `shutdown` end line (the server is closing). */
  shutdown(): void {
    this.end(SHUTDOWN_LINE);
  }

  private arm(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.done) return;
      this.raw.write('\n');
      this.arm();
    }, this.options.keepAliveMs);
    this.timer.unref();
  }

  private finish(): void {
    if (this.done) return;
    this.done = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    for (const fn of this.closers.splice(0)) {
      try {
        fn();
      } catch {
        // a closer's failure is its own
      }
    }
  }
}

/** The open streams of one node: a cap per client, and the end of every one at shutdown. */
export class StreamHub {
  private readonly byClient = new Map<string, number>();
  private readonly open = new Set<NdjsonStream>();
  private closing = false;

  /** `maxPerClient`: streams one client key may hold at once. */
  constructor(private readonly options: NdjsonOptions & { readonly maxPerClient: number }) {}

  /** Streams open on this node now. */
  get size(): number {
    return this.open.size;
  }

  /**
   * Reserves a place for a stream of `client` (its address) before anything is written, so a refusal is
   * an ordinary JSON error. Returns the release function (call it when no stream was started).
   * Errors: `rate-limited` past the cap; `unavailable` once the server is shutting down.
   */
  reserve(client: string): () => void {
    if (this.closing) throw new ApiError('unavailable', 'the server is shutting down: reconnect');
    const n = this.byClient.get(client) ?? 0;
    if (n >= this.options.maxPerClient)
      throw new ApiError(
        'rate-limited',
        `at most ${this.options.maxPerClient} open streams per client: close one first`,
      );
    this.byClient.set(client, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.byClient.get(client) ?? 1) - 1;
      if (left <= 0) this.byClient.delete(client);
      else this.byClient.set(client, left);
    };
  }

  /** Starts a stream on `raw` holding the place `release` reserved; the place is freed when it closes. */
  start(
    raw: ServerResponse,
    headers: Readonly<Record<string, string | number | string[] | undefined>>,
    release: () => void,
  ): NdjsonStream {
    const stream = new NdjsonStream(raw, this.options, headers);
    this.open.add(stream);
    stream.onClose(() => {
      this.open.delete(stream);
      release();
    });
    if (this.closing) stream.shutdown();
    return stream;
  }

  /** Ends every open stream with a `shutdown` line and refuses new ones (on server close). */
  closeAll(): void {
    this.closing = true;
    for (const s of [...this.open]) s.shutdown();
  }
}
