/**
 * The server benchmark's report as Markdown lines, from what the phases measured: the environment, the budgets
 * and their verdicts, round trips, machine load, CPU, garbage collections, memory, persistence (its rows come
 * from report.ts).
 */
import { availableParallelism, cpus } from 'node:os';
import { gitHead } from '../run-info.js';
import {
  BUDGET,
  HISTORY,
  LATENCY_SOCKETS,
  RATE,
  SECONDS,
  SERVER_DIR,
  SOCKETS,
  WARMUP_SECONDS,
} from './settings.js';
import { int, kb, mb, ms, quantile, table } from './format.js';
import { type Memory, startCommand } from './child.js';
import { type OpenLoopResult, type PhaseResult, errorCodes, totalAcked, validated } from './load.js';
import { cpuRow, cpuShareLines, gcRow } from './report.js';

/** Everything the run measured, as the report prints it. */
export interface BenchResults {
  /** A Postgres setting's value by name (`?` when it was not read). */
  pgSetting: (name: string) => string;
  /** The real server's RSS (bytes) right after it started. */
  startedRss: number;
  /** Load averages (1, 5, 15 min) at the start and after each phase. */
  load: number[][];
  /** Load average (1, 5, 15 min) before and after each phase: [phase, before, after]. */
  phaseLoad: string[][];
  /** The throughput phase (closed loop), its rounds summed. */
  throughput: PhaseResult;
  /** The bare platform server in the throughput phase's alternating windows, summed. */
  bare: PhaseResult;
  /** Persisted moves/s ÷ bare messages/s. */
  ratio: number;
  /** The latency phase (open loop at RATE). */
  latency: OpenLoopResult;
  /** The bare platform server at the latency phase's load. */
  bareLatency: PhaseResult;
  /** The history phase, when it ran. */
  history: PhaseResult | undefined;
  /** Moves of the history phase shed as `overloaded`. */
  historyShed: number;
  /** Memory after the throughput phase (the baseline). */
  m0: Memory;
  /** Memory once the latency games were created over REST. */
  m1: Memory;
  /** Memory once their sockets subscribed. */
  m2: Memory;
  /** Memory after the latency run. */
  m3: Memory;
  /** Memory after the history phase, when it ran. */
  m4: Memory | undefined;
  /** Mean moves per latency game after the latency run. */
  versionAfterLatency: number;
  /** Mean moves per latency game after the history phase (= versionAfterLatency when it did not run). */
  versionAfterHistory: number;
  /** The profile's report lines (empty without BENCH_PROFILE=1). */
  profileLines: string[];
  /** Moves/s offered in the overload phase. */
  overloadRate: number;
  /** The overload phase's accepted moves. */
  overload: PhaseResult;
  /** Moves the overload phase shed as `overloaded`. */
  shed: number;
  /** `Move` rows in the bench schema at the end. */
  persisted: number;
  /** Messages the bare platform server acknowledged (not persisted moves). */
  bareAcked: number;
}

/** The report's lines (Markdown): environment, budgets and verdicts, round trips, load, CPU, GC, memory. */
export function reportLines(r: BenchResults): string[] {
  const {
    pgSetting,
    startedRss,
    load,
    phaseLoad,
    throughput,
    bare,
    ratio,
    latency,
    bareLatency,
    history,
    historyShed,
    m0,
    m1,
    m2,
    m3,
    m4,
    versionAfterLatency,
    versionAfterHistory,
    profileLines,
    overloadRate,
    overload,
    shed,
    persisted,
    bareAcked,
  } = r;
  const perGame = (a: Memory, b: Memory, key: 'rss' | 'heap'): number => (b[key] - a[key]) / LATENCY_SOCKETS;
  const memFinal = m4 ?? m3;
  const versionFinal = m4 ? versionAfterHistory : versionAfterLatency;
  const memHeapPerGame = perGame(m0, memFinal, 'heap');
  const memRssPerGame = perGame(m0, memFinal, 'rss');
  const memVerdictValue = Number.isNaN(memHeapPerGame) ? memRssPerGame : memHeapPerGame;
  const ok = (pass: boolean): string => (pass ? 'OK' : 'BELOW');
  const cpu = cpus()[0]?.model ?? '?';
  const loads = load.map((l) => (l[0] as number).toFixed(2)).join(' → ');
  const lines: string[] = [
    `Run on ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}: ${availableParallelism()} cores (nproc), ${cpu}, ` +
      `node ${process.version}, PostgreSQL ${pgSetting('server_version')} on 127.0.0.1 ` +
      `(synchronous_commit ${pgSetting('synchronous_commit')}, fsync ${pgSetting('fsync')}), git ${gitHead(SERVER_DIR)}; ` +
      `server started as \`${startCommand()}\`.`,
    `1-minute load average (start → after each phase → end): ${loads}. The load generator runs on the same ` +
      `machine; any other work running there competes for the same cores.`,
    '',
    ...table(
      ['budget', 'measured', 'verdict'],
      [
        [
          `validated, persisted moves over WebSocket ≥ ${int(BUDGET.movesPerSecond)}/s`,
          `${int(throughput.rate)} moves/s (${SOCKETS} sockets, closed loop)`,
          ok(throughput.rate >= BUDGET.movesPerSecond),
        ],
        [
          'ratio to the bare Fastify + ws + zod server (same sockets, same load) ≥ 0.5',
          `${ratio.toFixed(2)} (${int(throughput.rate)} ÷ ${int(bare.rate)} messages/s)`,
          ok(ratio >= 0.5),
        ],
        [
          `p99 round trip ≤ ${BUDGET.p99Ms} ms at ${int(RATE)} moves/s, ${int(LATENCY_SOCKETS)} sockets open`,
          `p99 ${ms(quantile(latency.rtt, 0.99))} ms (${int(latency.rate)} moves/s achieved; the bare server's at the same load: ${ms(quantile(bareLatency.rtt, 0.99))} ms)`,
          ok(quantile(latency.rtt, 0.99) <= BUDGET.p99Ms && latency.rate >= 0.95 * RATE),
        ],
        [
          `memory per live game (socket + state + history) ≤ ${BUDGET.bytesPerGame / 1024} KB`,
          `${kb(memHeapPerGame)} heap + external, ${kb(memRssPerGame)} RSS (${versionFinal.toFixed(0)} moves of history)`,
          ok(memVerdictValue <= BUDGET.bytesPerGame),
        ],
        [
          'errors (error frames other than `overloaded` shedding)',
          String([...errorCodes].filter(([c]) => c !== 'overloaded').reduce((a, [, n]) => a + n, 0)),
          ok([...errorCodes].every(([c]) => c === 'overloaded')),
        ],
        [
          '`Move` rows = acknowledged moves',
          `${int(persisted)} rows, ${int(totalAcked - bareAcked)} acknowledged`,
          ok(persisted === totalAcked - bareAcked),
        ],
        [
          `overload: p99 of accepted moves bounded at 2× capacity (${int(overloadRate)} moves/s offered)`,
          `p99 ${ms(quantile(overload.rtt, 0.99))} ms; ${int(overload.rate)} accepted/s, ${int(shed)} shed`,
          ok(quantile(overload.rtt, 0.99) <= 1000),
        ],
      ],
    ),
    '',
    '### Round trips (ms: a move frame sent → its own `state` frame received)',
    '',
    ...table(
      ['phase', 'sockets', 'moves/s', 'moves', 'p50', 'p95', 'p99', 'max', 'errors'],
      [
        [
          'bare platform server (closed loop, no persistence)',
          int(SOCKETS),
          int(bare.rate),
          int(bare.acked),
          ms(quantile(bare.rtt, 0.5)),
          ms(quantile(bare.rtt, 0.95)),
          ms(quantile(bare.rtt, 0.99)),
          ms(bare.rtt.at(-1) ?? NaN),
          String(bare.errors),
        ],
        [
          'throughput (closed loop)',
          int(SOCKETS),
          int(throughput.rate),
          int(throughput.acked),
          ms(quantile(throughput.rtt, 0.5)),
          ms(quantile(throughput.rtt, 0.95)),
          ms(quantile(throughput.rtt, 0.99)),
          ms(throughput.rtt.at(-1) ?? NaN),
          String(throughput.errors),
        ],
        [
          `latency (open loop, ${int(RATE)}/s)`,
          int(LATENCY_SOCKETS),
          int(latency.rate),
          int(latency.acked),
          ms(quantile(latency.rtt, 0.5)),
          ms(quantile(latency.rtt, 0.95)),
          ms(quantile(latency.rtt, 0.99)),
          ms(latency.rtt.at(-1) ?? NaN),
          String(latency.errors),
        ],
        [
          'latency, from the scheduled send time',
          int(LATENCY_SOCKETS),
          '',
          '',
          ms(quantile(latency.fromSchedule, 0.5)),
          ms(quantile(latency.fromSchedule, 0.95)),
          ms(quantile(latency.fromSchedule, 0.99)),
          ms(latency.fromSchedule.at(-1) ?? NaN),
          '',
        ],
        [
          `bare platform server (open loop, ${int(RATE)}/s)`,
          int(LATENCY_SOCKETS),
          int(bareLatency.rate),
          int(bareLatency.acked),
          ms(quantile(bareLatency.rtt, 0.5)),
          ms(quantile(bareLatency.rtt, 0.95)),
          ms(quantile(bareLatency.rtt, 0.99)),
          ms(bareLatency.rtt.at(-1) ?? NaN),
          String(bareLatency.errors),
        ],
        ...(history
          ? [
              [
                `history (closed loop, to ${HISTORY} moves/game)`,
                int(LATENCY_SOCKETS),
                int(history.rate),
                int(history.acked),
                ms(quantile(history.rtt, 0.5)),
                ms(quantile(history.rtt, 0.95)),
                ms(quantile(history.rtt, 0.99)),
                ms(history.rtt.at(-1) ?? NaN),
                history.errors === historyShed
                  ? `${int(historyShed)} shed`
                  : `${int(history.errors - historyShed)}, ${int(historyShed)} shed`,
              ],
            ]
          : []),
        [
          `overload (open loop, ${int(overloadRate)}/s offered): accepted`,
          int(LATENCY_SOCKETS),
          int(overload.rate),
          int(overload.acked),
          ms(quantile(overload.rtt, 0.5)),
          ms(quantile(overload.rtt, 0.95)),
          ms(quantile(overload.rtt, 0.99)),
          ms(overload.rtt.at(-1) ?? NaN),
          `${int(overload.errors)} shed`,
        ],
      ],
    ),
    '',
    '### Machine load (`uptime` load averages 1 / 5 / 15 min) before and after each phase',
    '',
    ...table(['phase', 'before', 'after'], phaseLoad),
    '',
    `Open loop: ${int(RATE)} moves/s in total, each socket every ${ms((1000 * LATENCY_SOCKETS) / RATE)} ms; ` +
      `client send lag p99 ${ms(latency.sendLagP99)} ms; slots that found their socket's last move ` +
      `unanswered (sent once it was answered): ${int(latency.backlogged)}, of which ${int(latency.unsent)} were still ` +
      `waiting at the end and dropped. Round trips over ${BUDGET.p99Ms} ms: ${int(latency.slow.count)}, sent in ` +
      `${int(latency.slow.stretches)} stretches of 100 ms (the fullest: ${int(latency.slow.largest)}; a few full stretches are stalls, ` +
      `many thin ones a slow path). Round trips count from the actual send. Warm-up ${WARMUP_SECONDS} s before each measured ${SECONDS} s` +
      (history ? `; the history phase ran ${history.seconds.toFixed(1)} s.` : '.'),
    '',
    '### CPU during the measured windows (% of one core; machine and stolen: % of all cores, other work included)',
    '',
    ...table(
      [
        'phase',
        'server process',
        'its Postgres backends',
        'load generator',
        'machine',
        'of it stolen',
        'other processes (the most)',
        'waiting for a core: server / Postgres / load generator',
        'CPU µs per move: server / Postgres / load generator',
        'server writes / reads per move',
      ],
      [
        cpuRow('bare platform server', bare.cpu, bare.rate, bare.acked),
        cpuRow('throughput', throughput.cpu, throughput.rate, throughput.acked),
        cpuRow('latency', latency.cpu, latency.rate, latency.acked),
        cpuRow(`bare platform server, ${int(RATE)}/s`, bareLatency.cpu, bareLatency.rate, bareLatency.acked),
        ...(history ? [cpuRow('history', history.cpu, history.rate, history.acked)] : []),
        cpuRow('overload', overload.cpu, overload.rate, overload.acked),
      ],
    ),
    '',
    'Waiting for a core: the time the threads of each were runnable but not running (the run queue, ' +
      '/proc/<pid>/task/<tid>/schedstat), in % of one core. Where processes wait and yet the machine is not ' +
      'fully busy, work came in bursts or queued on one core while the other idled: a persisted move passes ' +
      'through three processes in turn (load generator → server → Postgres → server), a bare one through two. ' +
      "Stolen: time the hypervisor gave this virtual machine's cores to other guests while they had work " +
      '(/proc/stat); it makes every process slower and the figures of two runs harder to compare. Other ' +
      "processes: every other process's CPU (/proc/<pid>/stat), kernel threads and Postgres's own " +
      'background processes included; a kernel thread that takes a core in bursts delays whichever of the ' +
      'three it displaces on a 2-core machine.',
    '',
    ...cpuShareLines(throughput, bare),
    '### Garbage collection during the measured windows (main-thread pauses, perf_hooks): the server, and the load generator, whose pauses add to the round trips it measures',
    '',
    ...table(
      [
        'phase',
        'scavenges',
        'ms',
        'mark-compacts',
        'ms',
        'other (incremental, weak)',
        'ms',
        'longest pause ms',
        'GC % of window',
      ],
      [
        gcRow('throughput', throughput),
        gcRow('latency', latency),
        ...(history ? [gcRow('history', history)] : []),
        gcRow('overload', overload),
        gcRow('throughput: load generator', throughput, 'client'),
        gcRow('latency: load generator', latency, 'client'),
      ],
    ),
    '',
    `### Memory of the server process (${int(LATENCY_SOCKETS)} games; heap = heapUsed + external after a forced GC)`,
    '',
    ...table(
      ['point', 'RSS', 'heap + external', 'Δ RSS / game', 'Δ heap / game'],
      [
        ['started (before any game)', mb(startedRss), '', '', ''],
        ['after throughput phase (baseline)', mb(m0.rss), mb(m0.heap), '', ''],
        [
          'games created over REST, no socket',
          mb(m1.rss),
          mb(m1.heap),
          kb(perGame(m0, m1, 'rss')),
          kb(perGame(m0, m1, 'heap')),
        ],
        [
          '+ one socket each, subscribed',
          mb(m2.rss),
          mb(m2.heap),
          kb(perGame(m0, m2, 'rss')),
          kb(perGame(m0, m2, 'heap')),
        ],
        [
          `+ latency run (${versionAfterLatency.toFixed(1)} moves/game)`,
          mb(m3.rss),
          mb(m3.heap),
          kb(perGame(m0, m3, 'rss')),
          kb(perGame(m0, m3, 'heap')),
        ],
        ...(m4
          ? [
              [
                `+ history (${versionAfterHistory.toFixed(1)} moves/game)`,
                mb(m4.rss),
                mb(m4.heap),
                kb(perGame(m0, m4, 'rss')),
                kb(perGame(m0, m4, 'heap')),
              ],
            ]
          : []),
      ],
    ),
    '',
    `Δ RSS would be an upper bound (it includes socket buffers and heap the GC keeps reserved), but V8 grows ` +
      `and shrinks its heap with the allocation rate, so RSS swings by tens of MB between points (a negative Δ ` +
      `means it fell), i.e. tens of KB per game at ${int(LATENCY_SOCKETS)} games: read it as noise bounds. ` +
      `Δ heap counts the live objects the games add and is the figure the verdict uses.`,
    '',
    `Persistence: ${int(persisted)} \`Move\` rows in the schema for ${int(totalAcked - bareAcked)} acknowledged moves ` +
      `(${persisted === totalAcked - bareAcked ? 'equal' : 'DIFFERENT'}); error frames: ${
        errorCodes.size === 0 ? 'none' : [...errorCodes].map(([c, n]) => `${c} ${n}`).join(', ')
      }; ${validated} frames checked against ServerFrameSchema.`,
    ...(profileLines.length > 0 ? ['', ...profileLines] : []),
  ];
  return lines;
}
