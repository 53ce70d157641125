/**
 * Phase 3 of the server benchmark: longer histories, a closed loop on every latency socket until each game
 * has BENCH_HISTORY moves (at most BENCH_HISTORY_MAX_SECONDS), then the server's memory again.
 */
import { loadavg } from 'node:os';
import { HISTORY, HISTORY_MAX_SECONDS, LATENCY_SOCKETS } from './settings.js';
import { type Memory, memory } from './child.js';
import { CpuWindow } from './cpu.js';
import { type BenchSocket, type PhaseResult, closedLoop, errorCodes } from './load.js';
import type { BenchRun } from './run.js';

/** What the history phase measured; all undefined (and the version unchanged) when it did not run. */
export interface HistoryPhase {
  /** The closed loop, when it ran. */
  readonly history: PhaseResult | undefined;
  /** Moves of the history phase shed as `overloaded` (1,000 sockets in a closed loop outrun the queue). */
  readonly historyShed: number;
  /** Memory after it, when it ran. */
  readonly m4: Memory | undefined;
  /** Mean moves per latency game after it (= `versionAfterLatency` when it did not run). */
  readonly versionAfterHistory: number;
}

/** Runs phase 3 on `lSockets` when their games have fewer than BENCH_HISTORY moves on average. */
export async function historyPhase(
  run: BenchRun,
  lSockets: readonly BenchSocket[],
  versionAfterLatency: number,
): Promise<HistoryPhase> {
  const { server, inspector, db, load, measured } = run;
  // 3. Longer histories (closed loop on every socket until each game has HISTORY moves).
  let history: PhaseResult | undefined;
  /** Moves of the history phase shed as `overloaded` (1,000 sockets in a closed loop outrun the queue). */
  let historyShed = 0;
  let m4: Memory | undefined;
  let versionAfterHistory = versionAfterLatency;
  if (HISTORY > versionAfterLatency) {
    console.error(`history: up to ${HISTORY} moves per game on ${LATENCY_SOCKETS} sockets …`);
    const shedBeforeHistory = errorCodes.get('overloaded') ?? 0;
    history = await measured('history', () =>
      closedLoop(
        lSockets,
        0,
        HISTORY_MAX_SECONDS * 1000,
        new CpuWindow(server, db),
        (s) => s.version >= HISTORY,
      ),
    );
    historyShed = (errorCodes.get('overloaded') ?? 0) - shedBeforeHistory;
    load.push(loadavg());
    m4 = await memory(server, inspector);
    versionAfterHistory = lSockets.reduce((a, s) => a + s.version, 0) / lSockets.length;
  }
  return { history, historyShed, m4, versionAfterHistory };
}
