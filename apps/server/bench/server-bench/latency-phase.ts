/**
 * Phase 2 and 2b of the server benchmark: the server's memory before and after the latency games exist, the
 * latency at a fixed open-loop rate, then the bare platform server at the same rate (which it stops after).
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { LATENCY_SOCKETS, RATE, RTT_DUMP, SECONDS, WARMUP_SECONDS } from './settings.js';
import { runState, sockets } from './state.js';
import { type Memory, type Server, memory, stopServer } from './child.js';
import { CpuWindow } from './cpu.js';
import {
  type BenchSocket,
  type OpenLoopResult,
  type PhaseResult,
  createGames,
  openLoop,
  openSockets,
  totalAcked,
} from './load.js';
import type { BenchRun } from './run.js';

/** What the latency phase measured; its sockets stay open for the phases after it. */
export interface LatencyPhase {
  /** Memory after the throughput phase (the baseline). */
  readonly m0: Memory;
  /** Memory once the latency games were created over REST. */
  readonly m1: Memory;
  /** Memory once their sockets subscribed. */
  readonly m2: Memory;
  /** Memory after the latency run. */
  readonly m3: Memory;
  /** The latency games' sockets (LATENCY_SOCKETS, open). */
  readonly lSockets: BenchSocket[];
  /** The latency run (open loop at RATE). */
  readonly latency: OpenLoopResult;
  /** The bare platform server at the same rate on as many sockets. */
  readonly bareLatency: PhaseResult;
  /** Messages the bare server acknowledged in phase 2b (not persisted moves). */
  readonly bareAcked: number;
  /** Mean moves per latency game after the latency run. */
  readonly versionAfterLatency: number;
}

/** Runs phase 2 and 2b on the real server and `bareServer`, and stops `bareServer`. */
export async function latencyPhase(run: BenchRun, bareServer: Server): Promise<LatencyPhase> {
  const { server, inspector, db, load, measured } = run;
  let bareAcked = 0;
  // 2. Memory before, latency at a fixed rate, memory after.
  console.error(`memory + latency: ${LATENCY_SOCKETS} sockets, ${RATE} moves/s …`);
  const m0 = await memory(server, inspector);
  const lGames = await createGames(server, LATENCY_SOCKETS, 100_001);
  const m1 = await memory(server, inspector);
  const lSockets = await openSockets(server, lGames, 'l');
  const m2 = await memory(server, inspector);
  const latency = await measured(`latency (open loop, ${RATE}/s)`, () =>
    openLoop(lSockets, RATE, WARMUP_SECONDS * 1000, SECONDS * 1000, new CpuWindow(server, db), RTT_DUMP),
  );
  load.push(loadavg());
  const m3 = await memory(server, inspector);

  // 2b. The platform at the same open-loop rate on as many sockets, right after: the share of the p99 that
  // the machine itself sets (the bare server has no database and no rules; a stall of a core shows in both).
  console.error(`bare platform server: ${LATENCY_SOCKETS} sockets, ${RATE} messages/s …`);
  const bareLatencyGames = Array.from({ length: LATENCY_SOCKETS }, () => ({
    id: randomBytes(12).toString('base64url'),
  }));
  const bareLatencySockets = await openSockets(bareServer, bareLatencyGames, 'bl');
  const ackedBeforeBareLatency = totalAcked;
  const bareLatency = await measured(`bare platform server (open loop, ${RATE}/s)`, () =>
    openLoop(bareLatencySockets, RATE, WARMUP_SECONDS * 1000, SECONDS * 1000, new CpuWindow(bareServer, db)),
  );
  bareAcked += totalAcked - ackedBeforeBareLatency;
  for (const s of bareLatencySockets) {
    s.close();
    sockets.delete(s);
  }
  await stopServer(bareServer);
  runState.bareRunning = undefined;
  load.push(loadavg());
  const versionAfterLatency = lSockets.reduce((a, s) => a + s.version, 0) / lSockets.length;
  return { m0, m1, m2, m3, lSockets, latency, bareLatency, bareAcked, versionAfterLatency };
}
