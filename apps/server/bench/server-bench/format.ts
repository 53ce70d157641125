/** Small helpers of the server benchmark: waiting, quantiles, number formats, a bounded pool, Markdown tables. */
import WebSocket from 'ws';

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
}

export const ms = (v: number): string => (Number.isNaN(v) ? '–' : v < 10 ? v.toFixed(2) : v.toFixed(1));
export const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;
export const mb = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MB`;
export const int = (n: number): string => Math.round(n).toLocaleString('en-US');

/** Runs `fn` over `items` with at most `limit` calls in flight. */
export async function pool<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, i: number) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** A Markdown table whose columns are padded the way prettier formats them. */
export function table(head: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = head.map((h, i) => Math.max(3, h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    `| ${widths.map((w, i) => (cells[i] ?? '').padEnd(w)).join(' | ')} |`;
  return [line(head), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...rows.map(line)];
}

export function rawText(data: WebSocket.RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}
