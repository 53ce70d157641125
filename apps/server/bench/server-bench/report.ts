/** Rows and lines of the server benchmark's report: garbage collections, CPU per phase, the ratio's split. */
import { int } from './format.js';
import type { CpuUse } from './cpu.js';
import type { PhaseResult } from './load.js';

export function gcRow(name: string, p: PhaseResult, who: 'server' | 'client' = 'server'): string[] {
  const g = who === 'server' ? p.cpu?.gc : p.cpu?.clientGc;
  if (!g) return [name, '–', '–', '–', '–', '–', '–', '–', '–'];
  const f = (v: number): string => v.toFixed(1);
  const share = (100 * (g.minorMs + g.majorMs + g.otherMs)) / (1000 * p.seconds);
  return [
    name,
    int(g.minor),
    f(g.minorMs),
    int(g.major),
    f(g.majorMs),
    int(g.other),
    f(g.otherMs),
    f(g.maxMs),
    `${share.toFixed(1)} %`,
  ];
}

/** CPU µs per move from a share of one core (%) at `rate` moves/s: 1 % of a core is 10,000 µs each second. */
export function usPerMove(percentOfCore: number, rate: number): number {
  return (1e4 * percentOfCore) / rate;
}

/**
 * The ratio split in two: CPU per move of the three processes together, persisted and bare, gives the ratio
 * the machine would allow were it as busy in both; the machine's busy share in each gives the rest.
 */
export function cpuShareLines(persisted: PhaseResult, bare: PhaseResult): string[] {
  const p = persisted.cpu;
  const b = bare.cpu;
  if (!p || !b) return [];
  const all = (c: CpuUse, rate: number): number => usPerMove(c.server + c.postgres + c.client, rate);
  const perMove = all(p, persisted.rate);
  const barePerMove = all(b, bare.rate);
  return [
    `CPU per move of the three processes together: ${perMove.toFixed(1)} µs persisted, ${barePerMove.toFixed(1)} µs ` +
      `bare; were the machine as busy in both, the ratio would be their quotient, ${(barePerMove / perMove).toFixed(2)}. ` +
      `Measured: ${(persisted.rate / bare.rate).toFixed(2)}, with the machine ${p.machine.toFixed(0)} % busy persisted ` +
      `and ${b.machine.toFixed(0)} % bare.`,
    '',
    `The server's main thread (frames, moves, answers: one thread, so the rate is its time on a core divided by ` +
      `its CPU per move): on a core ${p.serverMain.running.toFixed(1)} % of the window persisted and ` +
      `${b.serverMain.running.toFixed(1)} % bare, runnable but waiting for a core ${p.serverMain.waiting.toFixed(1)} % ` +
      `and ${b.serverMain.waiting.toFixed(1)} %, switched out while it could have run on ` +
      `${int(p.serverMain.involuntaryPerSecond)} and ${int(b.serverMain.involuntaryPerSecond)} times a second; ` +
      `its CPU per move ${usPerMove(p.serverMain.running, persisted.rate).toFixed(1)} µs persisted, ` +
      `${usPerMove(b.serverMain.running, bare.rate).toFixed(1)} µs bare.`,
    '',
  ];
}

/**
 * A row of the CPU table: % of one core used by the server, its Postgres backends and the load generator,
 * the machine's % of all cores; each one's time waiting for a core (% of one core); CPU µs per move of each
 * (% of a core ÷ moves/s); the server's write and read system calls per move.
 */
export function cpuRow(name: string, c: CpuUse | undefined, rate: number, moves: number): string[] {
  if (!c) return [name, '–', '–', '–', '–', '–', '–', '–', '–', '–'];
  const f = (v: number): string => `${v.toFixed(0)} %`;
  const perMove = (v: number): string => usPerMove(v, rate).toFixed(1);
  const parts = [f(c.server), f(c.postgres), f(c.client), f(c.machine), f(c.steal)];
  const waiting = `${f(c.waiting.server)} / ${f(c.waiting.postgres)} / ${f(c.waiting.client)}`;
  const perMoveAll = `${perMove(c.server)} / ${perMove(c.postgres)} / ${perMove(c.client)}`;
  const calls = `${(c.writes / moves).toFixed(1)} / ${(c.reads / moves).toFixed(1)}`;
  const top = c.topOthers.map((o) => `${o.name} ${o.pct.toFixed(1)} %`).join(', ');
  const others = `${f(c.others)}${top === '' ? '' : ` (${top})`}`;
  return [name, ...parts, others, waiting, perMoveAll, calls];
}
