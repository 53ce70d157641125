/** The cluster soak's settings, from the environment (bench/cluster-soak.ts lists them). */
import { resolve } from 'node:path';
import { productionStart } from '../production-start.js';
import { envNumber } from '../settings.js';

export const SERVER_DIR = resolve(import.meta.dirname, '..', '..');
/** The production start script's node flags and environment (package.json "start"). */
export const PRODUCTION = productionStart(SERVER_DIR);
export const DATABASE_URL =
  process.env.CLUSTER_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/klondike_test';
export const REDIS_URL = process.env.CLUSTER_REDIS_URL || 'redis://127.0.0.1:6379';
/** Server processes behind nginx. */
export const NODES = 3;
/**
 * `pnpm soak:midnight` (CLUSTER_MIDNIGHT=1): the midnight alone — no node is killed, every bot opens today's
 * daily at the same instant (not at its next turn), the burst pace is a fast human's, and the run fails
 * unless every bot's opening was answered and stored once. The CLUSTER_* numbers still override.
 */
export const MIDNIGHT = process.env.CLUSTER_MIDNIGHT === '1';
export const BOTS = envNumber('CLUSTER_BOTS', 1500);
/**
 * How the bots open today's daily at midnight: `socket` (default; the `daily-attempt` frame on the socket
 * they already hold, as the web client does) or `rest` (`POST /api/daily/:date/:preset/attempt`, then a
 * `subscribe`), CLUSTER_OPEN_OVER.
 */
export const OPEN_OVER: 'socket' | 'rest' = process.env.CLUSTER_OPEN_OVER === 'rest' ? 'rest' : 'socket';
export const RAMP_S = envNumber('CLUSTER_RAMP_S', MIDNIGHT ? 90 : 60);
export const QUIET_S = envNumber('CLUSTER_QUIET_S', MIDNIGHT ? 10 : 20);
export const BURST_S = envNumber('CLUSTER_BURST_S', MIDNIGHT ? 60 : 120);
export const HUMAN_MOVE_MS = envNumber('CLUSTER_HUMAN_MOVE_MS', 6000);
export const BURST_MOVE_MS = envNumber('CLUSTER_BURST_MOVE_MS', MIDNIGHT ? 3000 : 600);
export const GAME_MOVES = envNumber('CLUSTER_GAME_MOVES', 40);
/** Seconds into the burst one node is killed; negative: none is (the midnight soak's default). */
export const KILL_AT_S = envNumber('CLUSTER_KILL_AT_S', MIDNIGHT ? -1 : 30);
export const RESTART_AFTER_S = envNumber('CLUSTER_RESTART_AFTER_S', 10);
/** The nodes' DAILY_ROLLOVER_DELAY_MS: the new day's rollover runs this long after a UTC midnight. */
export const ROLLOVER_DELAY_MS = 120_000;
/** How long a move may wait for its answer before the run counts it as unanswered and resyncs. */
export const ANSWER_TIMEOUT_MS = 30_000;

/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * How long (ms) a run of `runMs` starting at `nowMs` (epoch ms) waits so that no UTC midnight, nor the
 * `afterMs` after one, falls inside it: 0 when the run ends before the next midnight and starts `afterMs`
 * or more after the last one, else until `afterMs` past the midnight in the way.
 */
export function waitPastMidnight(nowMs: number, runMs: number, afterMs: number): number {
  const day = 86_400_000;
  const lastMidnight = Math.floor(nowMs / day) * day;
  if (nowMs < lastMidnight + afterMs) return lastMidnight + afterMs - nowMs;
  const nextMidnight = lastMidnight + day;
  return nowMs + runMs < nextMidnight ? 0 : nextMidnight + afterMs - nowMs;
}
