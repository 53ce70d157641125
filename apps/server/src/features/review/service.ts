/**
 * Reviews of finished games (docs/review.md): who may see one, where it is computed and how long it is kept.
 *
 * A review may be shown exactly when the game's replay may (GameRooms.replay: a daily game once its day has
 * closed, a race game once its race has finished, any other game once it is won or resigned), so a
 * review never tells more than the deal itself. It is computed once per node: the first request starts it
 * and answers `pending`; the solver's verdicts run in the background lane at the lowest CPU priority
 * (priority `review`, solve/scheduler.ts), never ahead of a hint; the finished review is kept in a
 * least-recently-used cache of REVIEW_CACHE entries. At most REVIEW_PENDING_MAX reviews are computed at
 * once on a node; a request for another is refused with 503 `solver-busy`.
 */
import { type GameReview, GameReviewSchema } from '@klondike/protocol';
import { type GameAction, parseDeal } from '@klondike/rules';
import type { FastifyBaseLogger } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { Replay } from '../../core/rooms/room.js';
import { ApiError } from '../../infra/errors.js';
import type { SolverPool } from '../solve/task.js';
import { accuracyOf, playedLine, searchLine } from './review.js';

/** What the review service needs. */
export interface ReviewServiceOptions {
  /** A finished game's deal and log, with the replay's visibility rules (GameRooms.replay). */
  readonly replay: (id: string) => Promise<Replay>;
  readonly solver: SolverPool;
  /** ms a verdict may search. */
  readonly verdictMs: number;
  readonly cacheSize: number;
  readonly pendingMax: number;
  readonly log: FastifyBaseLogger;
}

/** A review's answer: done, or pending with a suggested wait. */
export type ReviewAnswer =
  | { readonly status: 'done'; readonly review: GameReview }
  | { readonly status: 'pending'; readonly retryAfterMs: number };

/** How long a client should wait before asking again for a pending review, ms. */
const RETRY_AFTER_MS = 1_000;

/** See the module comment. */
export class ReviewService {
  private readonly done: LRUCache<string, GameReview>;
  private readonly pending = new Map<string, Promise<void>>();

  constructor(private readonly opts: ReviewServiceOptions) {
    this.done = new LRUCache({ max: opts.cacheSize });
  }

  /**
   * The review of game `id`, or `pending` while it is computed (a first request starts it).
   * Errors: `not-found`; `forbidden` while the game's deal may not be shown; `solver-busy` when
   * REVIEW_PENDING_MAX reviews are already being computed.
   */
  async review(id: string): Promise<ReviewAnswer> {
    const cached = this.done.get(id);
    if (cached) return { status: 'done', review: cached };
    if (this.pending.has(id)) return { status: 'pending', retryAfterMs: RETRY_AFTER_MS };
    const replay = await this.opts.replay(id);
    if (this.pending.has(id)) return { status: 'pending', retryAfterMs: RETRY_AFTER_MS };
    if (this.pending.size >= this.opts.pendingMax)
      throw new ApiError('solver-busy', 'too many reviews are being computed; retry shortly');
    const work = this.compute(replay)
      .then((review) => {
        this.done.set(id, review);
      })
      .catch((e: unknown) => {
        this.opts.log.warn({ err: e, gameId: id }, 'review failed');
      })
      .finally(() => this.pending.delete(id));
    this.pending.set(id, work);
    return { status: 'pending', retryAfterMs: RETRY_AFTER_MS };
  }

  /** Waits for the review of `id` if it is being computed (tests, shutdown). */
  async settled(id: string): Promise<void> {
    await this.pending.get(id);
  }

  /** Whether the review of `id` is being computed on this node. */
  isComputing(id: string): boolean {
    return this.pending.has(id);
  }

  /** Computes a review from a replay. Errors: throws when the log does not replay on its deal (corrupt). */
  private async compute(replay: Replay): Promise<GameReview> {
    const deal = parseDeal(replay.deal);
    if (!deal.ok) throw new Error(`game ${replay.id}: unreadable deal`);
    const actions = replay.steps.map((s): GameAction => {
      if (s.type !== 'move') return { type: s.type };
      if (s.move === undefined) throw new Error(`game ${replay.id}: a move step without its move`);
      return { type: 'move', move: s.move };
    });
    const line = playedLine(deal.value, replay.options, actions);
    if (line === null) throw new Error(`game ${replay.id}: its log does not replay`);
    const final = line.states[line.states.length - 1];
    const won = final !== undefined && final.foundations.every((f) => f === 13);
    const search = await searchLine(line, won, async (state) => {
      const r = await this.opts.solver.run(
        { kind: 'position', state: { ...state, history: null }, timeLimitMs: this.opts.verdictMs },
        { priority: 'review', label: `review ${replay.id}` },
      );
      return r.line !== undefined ? { verdict: r.verdict, line: r.line } : { verdict: r.verdict };
    });
    const point = search.pointOfNoReturn;
    return GameReviewSchema.parse({
      id: replay.id,
      status: 'done',
      winnableAtStart: search.winnableAtStart,
      pointOfNoReturn: point === null ? null : { ply: point, move: line.moves[point - 1] },
      lastWinnable:
        search.lastWinnable === null
          ? null
          : { ply: search.lastWinnable.ply, line: [...search.lastWinnable.line] },
      accuracy: accuracyOf(search, won, line.moves.length),
      plies: line.moves.map((move, i) => ({ ply: i + 1, move, winnable: search.winnable[i] ?? null })),
      par: search.par,
      moves: line.moves.length,
      won,
      decided: search.decided,
      solverCalls: search.solverCalls,
    });
  }
}
