/**
 * Phase 1 and 1b of the server benchmark: throughput (closed loop on BENCH_SOCKETS sockets) and the platform's
 * ceiling (the bare server, same sockets, same loop), in alternating windows.
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { ROUNDS, SECONDS, SOCKETS, WARMUP_SECONDS } from './settings.js';
import { sleep } from './format.js';
import { sockets } from './state.js';
import { BARE_ENTRY, type Server, startServer } from './child.js';
import { CpuWindow } from './cpu.js';
import { type PhaseResult, closedLoop, createGames, mergeResults, openSockets, totalAcked } from './load.js';
import type { BenchRun } from './run.js';

/** What the throughput phase measured, and the bare server it leaves running for phase 2b. */
export interface ThroughputPhase {
  /** The real server's windows, summed. */
  readonly throughput: PhaseResult;
  /** The bare platform server's windows, summed. */
  readonly bare: PhaseResult;
  /** Persisted moves/s ÷ bare messages/s. */
  readonly ratio: number;
  /** The bare platform server, still running (phase 2b uses it, then stops it). */
  readonly bareServer: Server;
  /** Messages the bare server acknowledged in this phase (not persisted moves). */
  readonly bareAcked: number;
}

/** Runs phase 1 and 1b (BENCH_ROUNDS alternating windows each); ends 500 ms after the last window. */
export async function throughputPhase(run: BenchRun): Promise<ThroughputPhase> {
  const { server, db, load, measured } = run;
  // 1. Throughput, and the platform's ceiling: the bare server (bench/bare-server.ts) with the same number
  // of sockets and the same closed loop. The machine's load drifts (other work shares it), so the two run
  // in alternating windows, BENCH_ROUNDS each (default 2) of BENCH_SECONDS / BENCH_ROUNDS, and each side's
  // windows are summed: both see the same mix of quiet and busy moments.
  console.error(
    `throughput vs bare platform server: ${SOCKETS} sockets each, ${ROUNDS} alternating rounds of ${SECONDS / ROUNDS} s …`,
  );
  const tGames = await createGames(server, SOCKETS, 1);
  const tSockets = await openSockets(server, tGames, 't');
  const bareServer = await startServer('', BARE_ENTRY);
  const bareGames = Array.from({ length: SOCKETS }, () => ({ id: randomBytes(12).toString('base64url') }));
  const bareSockets = await openSockets(bareServer, bareGames, 'b');
  const realParts: PhaseResult[] = [];
  const bareParts: PhaseResult[] = [];
  let bareAcked = 0;
  const windowMs = (SECONDS * 1000) / ROUNDS;
  for (let round = 0; round < ROUNDS; round++) {
    const warmupMs = round === 0 ? WARMUP_SECONDS * 1000 : 1000;
    realParts.push(
      await measured(`throughput, round ${round + 1}`, () =>
        closedLoop(tSockets, warmupMs, windowMs, new CpuWindow(server, db)),
      ),
    );
    const before = totalAcked;
    bareParts.push(
      await measured(`bare platform server, round ${round + 1}`, () =>
        closedLoop(bareSockets, warmupMs, windowMs, new CpuWindow(bareServer, db)),
      ),
    );
    bareAcked += totalAcked - before;
  }
  const throughput = mergeResults(realParts);
  const bare = mergeResults(bareParts);
  for (const s of [...tSockets, ...bareSockets]) {
    s.close();
    sockets.delete(s);
  }
  const ratio = throughput.rate / bare.rate;
  load.push(loadavg());
  await sleep(500);
  return { throughput, bare, ratio, bareServer, bareAcked };
}
