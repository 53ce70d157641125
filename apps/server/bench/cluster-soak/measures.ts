/** What the cluster soak reads besides its bots: CPU of processes by command, Redis's counters, summaries. */
import { readdirSync, readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';
import { parseStat } from '../proc.js';

/** CPU seconds of every process whose command is `name` (Postgres's backends, nginx's workers). */
export function cpuOfCommand(name: string): number {
  let sum = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const s = parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
      if (s.name === name) sum += s.cpu;
    } catch {
      // gone between the listing and the read
    }
  }
  return sum;
}

/** The value at percentile `p` (0–100) of `sorted` (ascending); NaN when it is empty. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** Count, p50, p99 and max of `xs` (ms), rounded to 0.1. */
export function summary(xs: number[]): { n: number; p50: number; p99: number; max: number } {
  const s = [...xs].sort((a, b) => a - b);
  const r = (x: number) => Math.round(x * 10) / 10;
  return {
    n: s.length,
    p50: r(percentile(s, 50)),
    p99: r(percentile(s, 99)),
    max: r(s[s.length - 1] ?? NaN),
  };
}

/** Redis's own counters of this run: commands and PUBLISHes processed, bytes sent. */
export async function redisCounters(
  redis: Redis,
): Promise<{ commands: number; publishes: number; netOut: number }> {
  const stats = await redis.info('stats');
  const commandstats = await redis.info('commandstats');
  const field = (text: string, re: RegExp) => Number(re.exec(text)?.[1] ?? 0);
  return {
    commands: field(stats, /total_commands_processed:(\d+)/),
    netOut: field(stats, /total_net_output_bytes:(\d+)/),
    publishes: field(commandstats, /cmdstat_publish:calls=(\d+)/),
  };
}
