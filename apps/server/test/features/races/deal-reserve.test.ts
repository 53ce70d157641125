/**
 * The certified deals made ahead (races/deal-reserve.ts), against a solver whose answers the test releases
 * one by one: one certification at a time as the server's own `certify` work, filled up to what is wanted
 * (capped), each deal handed out once and refilled behind it, nothing made when nothing is wanted, a
 * refused certification tried again later instead of at once, and nothing more once stopped.
 */
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { DEAL_RESERVE_MAX, DealReserve, RESERVE_RETRY_MS } from '../../../src/features/races/deal-reserve.js';
import type { SolverJob } from '../../../src/features/solve/scheduler.js';
import type { SolverOutcome, SolverPool, SolverTask } from '../../../src/features/solve/task.js';
import { ApiError } from '../../../src/infra/errors.js';

/** A solver whose jobs wait until the test answers them; it counts the jobs running at once. */
class HeldSolver {
  readonly jobs: {
    task: SolverTask;
    job: SolverJob | undefined;
    answer: (o: SolverOutcome | Error) => void;
  }[] = [];
  running = 0;
  mostAtOnce = 0;

  readonly pool = {
    run: (task: SolverTask, job?: SolverJob): Promise<SolverOutcome> => {
      this.running++;
      this.mostAtOnce = Math.max(this.mostAtOnce, this.running);
      return new Promise<SolverOutcome>((resolve, reject) => {
        this.jobs.push({
          task,
          job,
          answer: (o) => {
            this.running--;
            if (o instanceof Error) reject(o);
            else resolve(o);
          },
        });
      });
    },
  } as unknown as SolverPool;

  /** Answers the oldest unanswered job (a proven win unless told otherwise) and lets the reserve go on. */
  async answer(o: SolverOutcome | Error = { verdict: 'won', nodes: 1, ms: 1 }): Promise<void> {
    const next = this.jobs.shift();
    if (next === undefined) throw new Error('no job waiting');
    next.answer(o);
    await new Promise((r) => setImmediate(r));
  }
}

const log = pino({ level: 'silent' });
const made: { reserve: DealReserve; solver: HeldSolver }[] = [];
function reserveOn(solver: HeldSolver): DealReserve {
  const reserve = new DealReserve({ certify: { solver: solver.pool, certifyMs: 500 }, log });
  made.push({ reserve, solver });
  return reserve;
}
afterEach(async () => {
  for (const { reserve, solver } of made.splice(0)) {
    reserve.stop();
    while (solver.jobs.length > 0) await solver.answer();
  }
});

describe('DealReserve', () => {
  it('fills what is wanted one certification at a time, as the server’s own certify work', async () => {
    const solver = new HeldSolver();
    const reserve = reserveOn(solver);
    reserve.want('classic-draw1', 3);
    for (let i = 0; i < 3; i++) {
      expect(solver.jobs).toHaveLength(1);
      await solver.answer();
    }
    expect(reserve.size('classic-draw1')).toBe(3);
    expect(solver.jobs).toHaveLength(0);
    expect(solver.mostAtOnce).toBe(1);
    // Every job was a certification of the preset's deal, counted against no client.
    reserve.want('classic-draw1', 4);
    const job = solver.jobs[0];
    expect(job?.job).toEqual({ priority: 'certify' });
    expect(job?.task).toMatchObject({
      kind: 'deal',
      timeLimitMs: 500,
      shorten: false,
      options: { draw: 1, hints: false },
    });
    await solver.answer();
    expect(reserve.size('classic-draw1')).toBe(4);
  });

  it('hands each deal out once and refills behind it; an unproven candidate is not kept', async () => {
    const solver = new HeldSolver();
    const reserve = reserveOn(solver);
    reserve.want('classic-draw3', 2);
    await solver.answer({ verdict: 'unknown', nodes: 1, ms: 500 }); // not proven: another candidate
    await solver.answer();
    await solver.answer();
    expect(reserve.size('classic-draw3')).toBe(2);
    const a = reserve.take('classic-draw3');
    const b = reserve.take('classic-draw3');
    expect(a?.dealKey).toBeTruthy();
    expect(b?.dealKey).toBeTruthy();
    expect(a?.dealKey).not.toBe(b?.dealKey);
    expect(reserve.take('classic-draw3')).toBeUndefined();
    expect(reserve.take('classic-draw1')).toBeUndefined();
    // Refilled behind the takes, one at a time.
    expect(solver.jobs).toHaveLength(1);
    await solver.answer();
    await solver.answer();
    expect(reserve.size('classic-draw3')).toBe(2);
  });

  it('makes nothing unless wanted, stops at what is wanted, and caps it at DEAL_RESERVE_MAX', async () => {
    const solver = new HeldSolver();
    const reserve = reserveOn(solver);
    expect(reserve.take('classic-draw1')).toBeUndefined();
    await new Promise((r) => setImmediate(r));
    expect(solver.jobs).toHaveLength(0);
    reserve.want('classic-draw1', 1000);
    for (let i = 0; i < DEAL_RESERVE_MAX; i++) await solver.answer();
    expect(reserve.size('classic-draw1')).toBe(DEAL_RESERVE_MAX);
    expect(solver.jobs).toHaveLength(0);
    reserve.want('classic-draw1', 0);
    reserve.take('classic-draw1');
    await new Promise((r) => setImmediate(r));
    expect(solver.jobs).toHaveLength(0);
  });

  it('a refused certification is tried again after RESERVE_RETRY_MS, not at once', async () => {
    const solver = new HeldSolver();
    const reserve = reserveOn(solver);
    reserve.want('classic-draw1', 1);
    await solver.answer(new ApiError('solver-busy', 'busy'));
    reserve.want('classic-draw1', 1);
    await new Promise((r) => setTimeout(r, RESERVE_RETRY_MS / 2));
    expect(solver.jobs).toHaveLength(0);
    await new Promise((r) => setTimeout(r, RESERVE_RETRY_MS));
    expect(solver.jobs).toHaveLength(1);
    await solver.answer();
    expect(reserve.size('classic-draw1')).toBe(1);
  });

  it('once stopped it hands out nothing and certifies no more, without waiting for the job in flight', async () => {
    const solver = new HeldSolver();
    const reserve = reserveOn(solver);
    reserve.want('classic-draw1', 3);
    await solver.answer();
    reserve.stop();
    expect(reserve.take('classic-draw1')).toBeUndefined();
    await solver.answer(); // the job in flight when it stopped
    await new Promise((r) => setImmediate(r));
    expect(solver.jobs).toHaveLength(0);
    reserve.want('classic-draw1', 3);
    await new Promise((r) => setImmediate(r));
    expect(solver.jobs).toHaveLength(0);
  });
});
