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
export const BOTS = envNumber('CLUSTER_BOTS', 1500);
export const RAMP_S = envNumber('CLUSTER_RAMP_S', 60);
export const QUIET_S = envNumber('CLUSTER_QUIET_S', 20);
export const BURST_S = envNumber('CLUSTER_BURST_S', 120);
export const HUMAN_MOVE_MS = envNumber('CLUSTER_HUMAN_MOVE_MS', 6000);
export const BURST_MOVE_MS = envNumber('CLUSTER_BURST_MOVE_MS', 600);
export const GAME_MOVES = envNumber('CLUSTER_GAME_MOVES', 40);
export const KILL_AT_S = envNumber('CLUSTER_KILL_AT_S', 30);
export const RESTART_AFTER_S = envNumber('CLUSTER_RESTART_AFTER_S', 10);
/** How long a move may wait for its answer before the run counts it as unanswered and resyncs. */
export const ANSWER_TIMEOUT_MS = 30_000;

/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
