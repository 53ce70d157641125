/**
 * Listeners of one kind of race service event (races/service.ts `onInvitation`, `onFinished`): each hears
 * every event in turn; one that throws is logged and does not stop the others.
 */
import type { FastifyBaseLogger } from 'fastify';

/** See the module comment. `what` names the event in the log. */
export class Listeners<T> {
  private readonly set = new Set<(event: T) => void>();

  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly what: string,
  ) {}

  /** Adds `listener`; returns the function that removes it. */
  add(listener: (event: T) => void): () => void {
    this.set.add(listener);
    return () => this.set.delete(listener);
  }

  /** Calls every listener with `event`. */
  emit(event: T): void {
    for (const l of [...this.set]) {
      try {
        l(event);
      } catch (err) {
        this.log.warn({ err }, `race ${this.what} listener failed`);
      }
    }
  }
}
