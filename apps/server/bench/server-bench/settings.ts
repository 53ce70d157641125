/** The server benchmark's settings, from the environment (bench/server.bench.ts lists them), and the budgets. */
import { resolve } from 'node:path';
import { envNumber } from '../settings.js';

export const SERVER_DIR = resolve(import.meta.dirname, '..', '..');
export const DATABASE_URL =
  process.env.BENCH_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/klondike_test';
export const SOCKETS = Math.max(1, Math.min(5000, Math.round(envNumber('BENCH_SOCKETS', 200))));
export const LATENCY_SOCKETS = Math.max(
  1,
  Math.min(5000, Math.round(envNumber('BENCH_LATENCY_SOCKETS', 1000))),
);
export const RATE = Math.max(1, Math.min(50_000, envNumber('BENCH_RATE', 1000)));
export const SECONDS = Math.max(1, Math.min(300, envNumber('BENCH_SECONDS', 10)));
export const WARMUP_SECONDS = Math.min(60, envNumber('BENCH_WARMUP_SECONDS', 3));
export const HISTORY = Math.min(1000, Math.round(envNumber('BENCH_HISTORY', 100)));
export const HISTORY_MAX_SECONDS = Math.max(1, Math.min(600, envNumber('BENCH_HISTORY_MAX_SECONDS', 90)));
export const PROFILE = process.env.BENCH_PROFILE === '1';
export const PROFILE_SECONDS = Math.max(1, Math.min(60, envNumber('BENCH_PROFILE_SECONDS', 5)));
export const INSPECT = process.env.BENCH_INSPECT !== '0' || PROFILE;
export const WRITE = process.env.BENCH_WRITE === '1';
export const ROUNDS = Math.max(1, Math.min(10, Math.round(envNumber('BENCH_ROUNDS', 2))));
/** Extra node/V8 flags for the real server (space-separated), e.g. BENCH_SERVER_FLAGS=--trace-gc. */
export const SERVER_FLAGS = (process.env.BENCH_SERVER_FLAGS ?? '').split(/\s+/).filter((f) => f !== '');
/** BENCH_SERVER_LOG=file: the real server's standard output is also written there (e.g. with --trace-gc). */
export const SERVER_LOG = process.env.BENCH_SERVER_LOG || undefined;
export const TIMEOUT_SECONDS = Math.max(30, envNumber('BENCH_TIMEOUT_SECONDS', 600));
/**
 * BENCH_RTT_DUMP=file: the latency phase's moves are also written there, one line each, `<sent> <round trip>`
 * in ms (sent: ms into the measured window, by send order), after a first line `# <window start, ms since
 * the epoch>`, to line its stalls up with other records of the same moments (perf sched, --trace-gc).
 */
export const RTT_DUMP = process.env.BENCH_RTT_DUMP || undefined;

/** the budgets of apps/server/BENCHMARKS.md. */
export const BUDGET = { movesPerSecond: 5000, p99Ms: 10, bytesPerGame: 50 * 1024 } as const;
