import type { Inspector, Server } from './child.js';
import type { BenchSocket } from './load.js';

/** What every part of the run reaches: the servers running, the bench schema, the sockets, the abort. */
export const runState: {
  /** The real server while it runs. */
  running: Server | undefined;
  /** The bare platform server while it runs. */
  bareRunning: Server | undefined;
  /** The bench schema while it exists. */
  createdSchema: string | undefined;
  /** The run is closing its sockets (a socket closing then is no failure). */
  closing: boolean;
  /** The inspector of the real server while it runs (GC counters for the CPU windows). */
  gcInspector: Inspector | undefined;
  /** Aborts the run (set by the runner). */
  failure: ((e: unknown) => void) | undefined;
} = {
  running: undefined,
  bareRunning: undefined,
  createdSchema: undefined,
  closing: false,
  gcInspector: undefined,
  failure: undefined,
};

/** Every socket the load generator has open. */
export const sockets = new Set<BenchSocket>();

/** Aborts the run with `e`. */
export function fail(e: unknown): void {
  runState.failure?.(e);
}
