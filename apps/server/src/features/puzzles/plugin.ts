/**
 * Plugin `puzzles`: decorates `app.puzzles` (puzzles/service.ts): serving, attempts, the puzzle of the day,
 * timed runs, and the generation passes on the solver's background lane — one at start-up, one every
 * PUZZLES_SWEEP_MS, and one soon after `nudge()` (a race game ended); with PUZZLES_SWEEP_MS=0 none of these
 * (passes only when `sweep()` is called: tests, tools). Timers stop on close, after the running pass.
 */
import fp from 'fastify-plugin';
import { PuzzlesRepository } from './repository.js';
import { PuzzlesService } from './service.js';

/** What `app.puzzles` offers: the service, plus the generation's timers. */
export interface PuzzlesHandle {
  readonly service: PuzzlesService;
  /** Runs a generation pass now (see PuzzlesService.sweep): puzzles written. */
  sweep(): Promise<number>;
  /** Asks for a pass soon (a game's replay may have become public); never throws. */
  nudge(): void;
  /** Resolves once no pass is running. */
  idle(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Puzzles (plugin `puzzles`). */
    puzzles: PuzzlesHandle;
  }
}

/** Delay between a nudge and its pass, ms: the games of one race end together. */
const NUDGE_DELAY_MS = 2_000;

/** Registers the service and its timers. */
export const puzzlesPlugin = fp(
  (app) => {
    const c = app.config;
    const service = new PuzzlesService({
      repository: new PuzzlesRepository(app.prisma),
      solver: app.solver,
      replay: (id) => app.rooms.replay(id),
      now: app.now,
      batch: c.puzzlesBatch,
      limits: {
        maxUnseen: c.puzzlesMaxUnseen,
        perGame: c.puzzlesPerGame,
        solveNodes: c.puzzlesSolveNodes,
        maxSolves: c.puzzlesMaxSolves,
        minimalNodes: c.puzzlesMinimalNodes,
      },
      warn: (msg, err) => app.log.warn({ err }, msg),
    });
    let closed = false;
    let nudged: NodeJS.Timeout | undefined;
    const pass = (): void => {
      if (closed) return;
      service.sweep().catch((err: unknown) => app.log.warn({ err }, 'puzzles pass failed'));
    };
    app.decorate('puzzles', {
      service,
      sweep: () => service.sweep(),
      idle: () => service.idle(),
      nudge() {
        if (closed || nudged !== undefined || c.puzzlesSweepMs === 0) return;
        nudged = setTimeout(() => {
          nudged = undefined;
          pass();
        }, NUDGE_DELAY_MS);
        nudged.unref();
      },
    } satisfies PuzzlesHandle);
    let timer: NodeJS.Timeout | undefined;
    app.addHook('onReady', () => {
      if (c.puzzlesSweepMs > 0) {
        pass();
        timer = setInterval(pass, c.puzzlesSweepMs);
        timer.unref();
      }
      return Promise.resolve();
    });
    app.addHook('onClose', async () => {
      closed = true;
      clearInterval(timer);
      clearTimeout(nudged);
      await service.idle();
    });
    return Promise.resolve();
  },
  { name: 'puzzles', fastify: '5.x', dependencies: ['config', 'db', 'game-rooms', 'solver'] },
);
