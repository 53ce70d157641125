/**
 * How the status page judges each part from the node's figures (issue 58; docs/operations.md "Status
 * page"): pure, no clock, no I/O. The same figures feed the metrics, so the page and the alerts agree.
 */
import type { StatusLevel, StatusPart, StatusResponse } from '@klondike/protocol';

/** The figures one status answer is judged from. */
export interface StatusFigures {
  /** The database answered a trivial query within a second. */
  readonly database: boolean;
  /** Writes admitted and not yet stored, and the bound past which they are refused (COMMIT_QUEUE). */
  readonly commitQueue: { readonly depth: number; readonly bound: number };
  /** `overloaded` refusals since the previous answer (a window of the service's choosing). */
  readonly recentRefusals: number;
  /** Today's dailies are stored. */
  readonly dailyReady: boolean;
  /** Several nodes share Redis (REDIS_URL set). */
  readonly clustered: boolean;
  /** This node reaches Redis (always true alone). */
  readonly redis: boolean;
  /** The solver's threads failed to start. */
  readonly solverFailed: boolean;
  /** The solver's interactive queue is full (new hints and solves are refused `solver-busy`). */
  readonly solverBusy: boolean;
}

/** A commit queue this full (fraction of its bound) makes moves `degraded`. */
export const COMMIT_QUEUE_DEGRADED = 0.8;

const UP: StatusPart = { level: 'up', reason: null };

/** The worse of two levels. */
function worse(a: StatusLevel, b: StatusLevel): StatusLevel {
  const order: readonly StatusLevel[] = ['up', 'degraded', 'down'];
  return order.indexOf(a) >= order.indexOf(b) ? a : b;
}

/** Each part's level and reason, and the worst level of them. */
export function assessStatus(f: StatusFigures): Pick<StatusResponse, 'status' | 'parts'> {
  const moves: StatusPart = !f.database
    ? { level: 'down', reason: 'database' }
    : f.recentRefusals > 0
      ? { level: 'degraded', reason: 'overloaded' }
      : f.commitQueue.depth >= COMMIT_QUEUE_DEGRADED * f.commitQueue.bound
        ? { level: 'degraded', reason: 'commit-queue' }
        : UP;
  const daily: StatusPart = !f.database
    ? { level: 'down', reason: 'database' }
    : f.dailyReady
      ? UP
      : { level: 'degraded', reason: 'daily-pending' };
  // Races between nodes hear each other through Redis: without it a race's players on two nodes wait.
  const races: StatusPart = !f.database
    ? { level: 'down', reason: 'database' }
    : f.clustered && !f.redis
      ? { level: 'degraded', reason: 'redis' }
      : UP;
  const solver: StatusPart = f.solverFailed
    ? { level: 'down', reason: 'solver-failed' }
    : f.solverBusy
      ? { level: 'degraded', reason: 'solver-busy' }
      : UP;
  const cluster: StatusPart = f.clustered && !f.redis ? { level: 'degraded', reason: 'redis' } : UP;
  const parts = { moves, daily, races, solver, cluster };
  const status = Object.values(parts).reduce<StatusLevel>((acc, p) => worse(acc, p.level), 'up');
  return { status, parts };
}
