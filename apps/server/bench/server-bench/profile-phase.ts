/**
 * Phase 4 of the server benchmark (BENCH_PROFILE=1): BENCH_PROFILE_SECONDS more of the closed loop under the
 * inspector's CPU profiler and V8's sampling heap profiler; the profile is saved under the OS temp folder.
 */
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROFILE, PROFILE_SECONDS, SOCKETS } from './settings.js';
import { int } from './format.js';
import { type BenchSocket, closedLoop } from './load.js';
import {
  type AllocationProfile,
  type CpuProfile,
  summariseAllocations,
  summariseProfile,
} from './profile.js';
import type { BenchRun } from './run.js';

/**
 * Runs phase 4 on the first BENCH_SOCKETS of `lSockets`; returns the report's profile section (empty without
 * BENCH_PROFILE=1 or without the inspector).
 */
export async function profilePhase(run: BenchRun, lSockets: readonly BenchSocket[]): Promise<string[]> {
  const { inspector } = run;
  // 4. Optional CPU profile of the throughput loop (first SOCKETS latency sockets).
  let profileLines: string[] = [];
  if (PROFILE && inspector) {
    console.error(
      `profile: ${PROFILE_SECONDS} s closed loop on ${Math.min(SOCKETS, lSockets.length)} sockets …`,
    );
    await inspector.call('Profiler.enable');
    await inspector.call('Profiler.setSamplingInterval', { interval: 500 });
    await inspector.call('Profiler.start');
    // Allocations too, the young-generation garbage included (what the scavenges pay for).
    await inspector.call('HeapProfiler.startSampling', {
      samplingInterval: 16_384,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    const profiled = await closedLoop(lSockets.slice(0, SOCKETS), 0, PROFILE_SECONDS * 1000, undefined);
    const { profile: allocations } = await inspector.call<{ profile: AllocationProfile }>(
      'HeapProfiler.stopSampling',
    );
    const { profile } = await inspector.call<{ profile: CpuProfile }>('Profiler.stop');
    const file = join(tmpdir(), `klondike-server-bench-${Date.now()}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    profileLines = [
      `### CPU profile of the server (${PROFILE_SECONDS} s closed loop, ${Math.min(SOCKETS, lSockets.length)} sockets, ${int(profiled.rate)} moves/s under the profiler)`,
      '',
      `Saved as \`${file}\` (open in Chrome DevTools → Performance).`,
      '',
      ...summariseProfile(profile),
      '',
      ...summariseAllocations(allocations, profiled.rate * PROFILE_SECONDS),
    ];
  }
  return profileLines;
}
