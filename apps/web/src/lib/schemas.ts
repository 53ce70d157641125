/**
 * The protocol's zod schemas (@klondike/protocol), loaded on first use rather than with the first page: zod and
 * every schema are a large share of the first page's budget (docs/benchmarks.md), and the page can draw the
 * table before any answer or frame needs checking. main.ts starts the load as soon as the app starts; a REST answer awaits it (api.ts), and
 * socket frames that arrive before it are held and checked in order once it is here (useSocket.ts).
 */
export type Protocol = typeof import('@klondike/protocol');

let loading: Promise<Protocol> | undefined;
let loaded: Protocol | undefined;

/** The schemas, loading them the first time (the same promise afterwards). */
export function loadSchemas(): Promise<Protocol> {
  loading ??= import('@klondike/protocol').then(
    (m) => (loaded = m),
    (e: unknown) => {
      loading = undefined; // offline: the next call tries again
      throw e;
    },
  );
  return loading;
}

/** The schemas if they are already loaded, else undefined (callers then wait with `loadSchemas`). */
export function loadedSchemas(): Protocol | undefined {
  return loaded;
}
