/**
 * The solver's job order (hardening): interactive work (hints, then solve, then race certification) before
 * background work (daily certification, par, archive), first come first served within a priority, background
 * jobs on threads of their own when there are any, and bounds on waiting interactive jobs overall and per
 * client.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/infra/errors.js';
import { type SolverJob, SolverScheduler } from '../../../src/features/solve/scheduler.js';

/** A job body the test finishes by hand; records when it started. */
function controlled(log: string[], name: string) {
  let finish: () => void = () => {};
  const done = new Promise<string>((resolve) => {
    finish = () => resolve(name);
  });
  return {
    run: () => {
      log.push(name);
      return done;
    },
    finish: () => finish(),
  };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('SolverScheduler', () => {
  it('gives a freed shared thread to the most urgent waiting job: hint, solve, certify, then background', async () => {
    const s = new SolverScheduler<string>({ concurrency: 1, maxQueued: 10, maxPerClient: 10 });
    const log: string[] = [];
    const busy = controlled(log, 'busy');
    const jobs: [SolverJob, ReturnType<typeof controlled>][] = [
      [{ priority: 'certify', client: 'c' }, controlled(log, 'certify')],
      [{ priority: 'solve', client: 'b' }, controlled(log, 'solve-1')],
      [{ priority: 'hint', client: 'a' }, controlled(log, 'hint')],
      [{ priority: 'solve', client: 'b' }, controlled(log, 'solve-2')],
      [{ priority: 'archive' }, controlled(log, 'archive')],
      [{ priority: 'daily' }, controlled(log, 'daily')],
    ];
    const first = s.submit({ priority: 'certify' }, busy.run);
    const results = jobs.map(([job, c]) => s.submit(job, c.run));
    expect(s.queued).toBe(6);
    busy.finish();
    await first;
    for (const [, c] of jobs) {
      await flush();
      c.finish();
    }
    expect(await Promise.all(results)).toEqual(['certify', 'solve-1', 'hint', 'solve-2', 'archive', 'daily']);
    expect(log).toEqual(['busy', 'hint', 'solve-1', 'solve-2', 'certify', 'daily', 'archive']);
  });

  it('refuses a client past its share with solver-busy, and frees the share when its jobs end', async () => {
    const s = new SolverScheduler<string>({ concurrency: 1, maxQueued: 10, maxPerClient: 2 });
    const log: string[] = [];
    const a1 = controlled(log, 'a1');
    const a2 = controlled(log, 'a2');
    const p1 = s.submit({ priority: 'solve', client: 'a' }, a1.run);
    const p2 = s.submit({ priority: 'solve', client: 'a' }, a2.run);
    await expect(
      s.submit({ priority: 'solve', client: 'a' }, () => Promise.resolve('a3')),
    ).rejects.toMatchObject({
      code: 'solver-busy',
    });
    // Another client is not held back by a's share.
    const b = s.submit({ priority: 'solve', client: 'b' }, () => Promise.resolve('b'));
    a1.finish();
    await p1;
    await flush();
    a2.finish();
    await p2;
    expect(await b).toBe('b');
    expect(await s.submit({ priority: 'solve', client: 'a' }, () => Promise.resolve('a4'))).toBe('a4');
  });

  it('bounds waiting interactive jobs overall, but never refuses background work', async () => {
    const s = new SolverScheduler<string>({ concurrency: 1, maxQueued: 1, maxPerClient: 10 });
    const log: string[] = [];
    const busy = controlled(log, 'busy');
    const running = s.submit({ priority: 'solve', client: 'x' }, busy.run);
    const waiting = s.submit({ priority: 'solve', client: 'y' }, () => Promise.resolve('y'));
    const refused = s.submit({ priority: 'hint', client: 'z' }, () => Promise.resolve('z'));
    await expect(refused).rejects.toBeInstanceOf(ApiError);
    const daily = s.submit({ priority: 'daily' }, () => Promise.resolve('daily'));
    busy.finish();
    await running;
    expect(await daily).toBe('daily');
    expect(await waiting).toBe('y');
  });

  it('a job that fails frees its thread and share; the error reaches its caller only', async () => {
    const s = new SolverScheduler<string>({ concurrency: 1, maxQueued: 5, maxPerClient: 1 });
    await expect(
      s.submit({ priority: 'hint', client: 'a' }, async () => Promise.reject(new Error('boom'))),
    ).rejects.toThrow('boom');
    expect(await s.submit({ priority: 'hint', client: 'a' }, () => Promise.resolve('fine'))).toBe('fine');
    expect(s.active).toBe(0);
  });

  it('runs background jobs on their own slots: a hint starts while a background search runs', async () => {
    const s = new SolverScheduler<string>({
      concurrency: 1,
      backgroundConcurrency: 1,
      maxQueued: 5,
      maxPerClient: 5,
    });
    const log: string[] = [];
    const events: string[] = [];
    s.observe((e) => events.push(`${e.type} ${e.priority} ${e.lane}`));
    const par = controlled(log, 'par');
    const archive = controlled(log, 'archive');
    const hint = controlled(log, 'hint');
    const daily = controlled(log, 'daily');
    const pPar = s.submit({ priority: 'par', label: 'par 2026-12-01 classic-draw1' }, par.run);
    const pArchive = s.submit({ priority: 'archive' }, archive.run);
    const pHint = s.submit({ priority: 'hint', client: 'a' }, hint.run);
    const pDaily = s.submit({ priority: 'daily' }, daily.run);
    // The par search holds the background slot; the hint got the interactive one at once.
    expect(log).toEqual(['par', 'hint']);
    expect(s.running().map((r) => `${r.priority} ${r.lane}`)).toEqual(['par background', 'hint interactive']);
    expect(s.running()[0]?.label).toBe('par 2026-12-01 classic-draw1');
    expect(s.queuedBackground).toBe(1);
    hint.finish();
    await pHint;
    // Certifying a daily (milliseconds, and a request may wait for today's) takes the interactive slot next;
    // the archive waits for the background slot.
    expect(log).toEqual(['par', 'hint', 'daily']);
    daily.finish();
    await pDaily;
    await flush();
    expect(log).toEqual(['par', 'hint', 'daily']);
    par.finish();
    await pPar;
    expect(log).toEqual(['par', 'hint', 'daily', 'archive']);
    archive.finish();
    await pArchive;
    expect(events.slice(0, 4)).toEqual([
      'start par background',
      'start hint interactive',
      'end hint interactive',
      'start daily interactive',
    ]);
    expect(s.active).toBe(0);
  });

  it('lets a daily certification take a free background slot when the interactive ones are taken', async () => {
    const s = new SolverScheduler<string>({
      concurrency: 1,
      backgroundConcurrency: 1,
      maxQueued: 5,
      maxPerClient: 5,
    });
    const log: string[] = [];
    const first = controlled(log, 'daily-draw1');
    const second = controlled(log, 'daily-draw3');
    const p1 = s.submit({ priority: 'daily' }, first.run);
    const p2 = s.submit({ priority: 'daily' }, second.run);
    // Both presets are certified at once: one on each lane.
    expect(log).toEqual(['daily-draw1', 'daily-draw3']);
    expect(s.running().map((r) => r.lane)).toEqual(['interactive', 'background']);
    // A hint arriving now waits for the interactive slot only, never for background work.
    const hint = controlled(log, 'hint');
    const ph = s.submit({ priority: 'hint', client: 'a' }, hint.run);
    first.finish();
    await p1;
    expect(log).toEqual(['daily-draw1', 'daily-draw3', 'hint']);
    hint.finish();
    second.finish();
    await Promise.all([p2, ph]);
  });
});
