/**
 * An NDJSON reader for the stream tests (docs/api.md "Streams"): opens a stream with fetch and hands out its
 * lines, parsed, as they arrive; keep-alive (empty) lines are counted apart.
 */

/** One open NDJSON response. */
export class NdjsonReader {
  /** Every non-empty line received, in order, parsed. */
  readonly lines: unknown[] = [];
  /** Every non-empty line received, as text. */
  readonly texts: string[] = [];
  /** Empty lines (keep-alives) received. */
  keepAlives = 0;
  /** Whether the server ended the response. */
  ended = false;
  private waiters: (() => void)[] = [];
  private constructor(
    readonly response: Response,
    private readonly abort: AbortController,
  ) {}

  /** Opens `url` (with `token` as the bearer when given); the status is the caller's to check. */
  static async open(url: string, token?: string): Promise<NdjsonReader> {
    const abort = new AbortController();
    const response = await fetch(url, {
      headers: token !== undefined ? { authorization: `Bearer ${token}` } : {},
      signal: abort.signal,
    });
    const reader = new NdjsonReader(response, abort);
    if (response.ok && response.body !== null) void reader.pump(response.body);
    else reader.ended = true;
    return reader;
  }

  private async pump(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let rest = '';
    try {
      for await (const chunk of body) {
        rest += decoder.decode(chunk, { stream: true });
        let nl: number;
        while ((nl = rest.indexOf('\n')) >= 0) {
          const text = rest.slice(0, nl);
          rest = rest.slice(nl + 1);
          if (text === '') this.keepAlives++;
          else {
            this.texts.push(text);
            this.lines.push(JSON.parse(text));
          }
          this.wake();
        }
      }
    } catch {
      // aborted by the test, or cut by the server
    }
    this.ended = true;
    this.wake();
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  /** Resolves once `ready()` holds (checked at every line and at the end); rejects after `ms`. */
  async until(ready: () => boolean, ms = 15_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!ready()) {
      if (Date.now() > deadline)
        throw new Error(`ndjson: condition not met; lines so far: ${JSON.stringify(this.texts)}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }

  /** Resolves with the first line (parsed) that `pred` accepts, waiting for it. */
  async next<T = Record<string, unknown>>(pred: (line: Record<string, unknown>) => boolean): Promise<T> {
    let found: unknown;
    await this.until(() => {
      found = this.lines.find((l) => pred(l as Record<string, unknown>));
      return found !== undefined;
    });
    return found as T;
  }

  /** Resolves once the response has ended. */
  async closed(): Promise<void> {
    await this.until(() => this.ended);
  }

  /** Closes the response from the reader's side. */
  close(): void {
    this.abort.abort();
  }
}
