/**
 * Phase 5 of the server benchmark: overload, twice the measured throughput offered open-loop on the latency
 * sockets; moves past the server's commit queue are shed (`overloaded` error frames).
 */
import { loadavg } from 'node:os';
import { LATENCY_SOCKETS, RATE, SECONDS, WARMUP_SECONDS } from './settings.js';
import { CpuWindow } from './cpu.js';
import { type BenchSocket, type PhaseResult, errorCodes, openLoop } from './load.js';
import type { BenchRun } from './run.js';

/** What the overload phase measured. */
export interface OverloadPhase {
  /** Moves/s offered: twice the throughput phase's rate, at least BENCH_RATE. */
  readonly overloadRate: number;
  /** The accepted moves. */
  readonly overload: PhaseResult;
  /** Moves shed as `overloaded`. */
  readonly shed: number;
}

/** Runs phase 5 on `lSockets`, offering twice `throughput`'s rate. */
export async function overloadPhase(
  run: BenchRun,
  throughput: PhaseResult,
  lSockets: readonly BenchSocket[],
): Promise<OverloadPhase> {
  const { server, db, load, measured } = run;

  // 5. Overload: twice the measured capacity offered on the latency sockets; moves past the server's commit
  // queue are shed (`overloaded` error frames), the accepted ones must stay fast.
  const overloadRate = Math.max(RATE, Math.round(2 * throughput.rate));
  console.error(`overload: ${overloadRate} moves/s offered on ${LATENCY_SOCKETS} sockets …`);
  const shedBefore = errorCodes.get('overloaded') ?? 0;
  const overload = await measured(`overload (open loop, ${overloadRate}/s)`, () =>
    openLoop(lSockets, overloadRate, WARMUP_SECONDS * 1000, SECONDS * 1000, new CpuWindow(server, db)),
  );
  const shed = (errorCodes.get('overloaded') ?? 0) - shedBefore;
  load.push(loadavg());
  return { overloadRate, overload, shed };
}
