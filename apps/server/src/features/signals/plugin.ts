/**
 * Plugin `signals`: decorates `app.signals` (signals/service.ts), which computes the fair-play signals of
 * ended rated games on the solver's background lane: a pass at start-up, one every SIGNALS_SWEEP_MS, and
 * one soon after `nudge()` (a rated game ended); with SIGNALS_SWEEP_MS=0 none of these (passes only when
 * `sweep()` is called: tests, tools). Timers stop on close, after the running pass.
 */
import fp from 'fastify-plugin';
import { SignalsRepository } from './repository.js';
import { SignalsService } from './service.js';

/** What `app.signals` offers. */
export interface SignalsHandle {
  /** Runs a pass now (see SignalsService.sweep). */
  sweep(): Promise<number>;
  /** Asks for a pass soon (a rated game ended); never throws. */
  nudge(): void;
  /** Resolves once no pass is running. */
  idle(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The fair-play signals of ended rated games (plugin `signals`). */
    signals: SignalsHandle;
  }
}

/** Delay between a nudge and its pass, ms: the games of one race end together. */
const NUDGE_DELAY_MS = 1_000;

/** Registers the service and its timers. */
export const signalsPlugin = fp(
  (app) => {
    const service = new SignalsService({
      repository: new SignalsRepository(app.prisma),
      solver: app.solver,
      now: app.now,
      batch: app.config.signalsBatch,
      solveNodes: app.config.signalsSolveNodes,
      warn: (msg, err) => app.log.warn({ err }, msg),
    });
    let closed = false;
    let nudged: NodeJS.Timeout | undefined;
    const pass = (): void => {
      if (closed) return;
      service.sweep().catch((err: unknown) => app.log.warn({ err }, 'signals pass failed'));
    };
    app.decorate('signals', {
      sweep: () => service.sweep(),
      idle: () => service.idle(),
      nudge() {
        if (closed || nudged !== undefined || app.config.signalsSweepMs === 0) return;
        nudged = setTimeout(() => {
          nudged = undefined;
          pass();
        }, NUDGE_DELAY_MS);
        nudged.unref();
      },
    } satisfies SignalsHandle);
    let timer: NodeJS.Timeout | undefined;
    app.addHook('onReady', () => {
      if (app.config.signalsSweepMs > 0) {
        pass();
        timer = setInterval(pass, app.config.signalsSweepMs);
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
  { name: 'signals', fastify: '5.x', dependencies: ['config', 'db', 'solver'] },
);
