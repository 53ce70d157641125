/**
 * Daily leaderboards (daily/service.ts): a page of a daily's leaderboard (the rows and their ranks are read
 * by daily/repository.ts), and the live leaderboards: the sockets watching a daily's leaderboard, told of
 * every row added here or (through the bus) on another node, and the fair-play signals recorded after each.
 */
import {
  DailyPresetSchema,
  type LeaderboardEntrySchema,
  type LeaderboardQuerySchema,
  type LeaderboardSchema,
  type ServerFrame,
} from '@klondike/protocol';
import type { z } from 'zod';
import type { FastifyBaseLogger } from 'fastify';
import type { DailyRef, Subscriber } from '../../core/rooms/game-rooms.js';
import type { EventBus } from '../../infra/bus/event-bus.js';
import { startOfDate } from '../../infra/dates.js';
import type { FairnessRepository } from '../fairness/repository.js';
import { recordSignals } from '../fairness/signals.js';
import type { DailyPreset } from './generate.js';
import type { DailyRepository, DailyRow, ResultWithPlayer } from './repository.js';

export type { ResultRowLike } from './repository.js';

type Leaderboard = z.infer<typeof LeaderboardSchema>;
type LeaderboardEntry = z.infer<typeof LeaderboardEntrySchema>;
type LeaderboardQuery = z.infer<typeof LeaderboardQuerySchema>;

/** A `leaderboard` frame as published on the bus channel `leaderboards`. */
export type LeaderboardFrame = Extract<ServerFrame, { type: 'leaderboard' }>;

/** Whether a bus message is a `leaderboard` frame. */
export function isLeaderboardFrame(m: unknown): m is LeaderboardFrame {
  const f = m as Partial<LeaderboardFrame> | null;
  return (
    typeof f === 'object' &&
    f !== null &&
    f.type === 'leaderboard' &&
    typeof f.date === 'string' &&
    DailyPresetSchema.safeParse(f.preset).success &&
    typeof f.total === 'number'
  );
}

/** Live daily leaderboards: the sockets that sent `watch-leaderboard`, per daily. */
export class LeaderboardWatchers {
  private readonly byDaily = new Map<string, Set<Subscriber>>();

  /** Adds a watcher of a daily. */
  add(date: string, preset: DailyPreset, subscriber: Subscriber): void {
    const key = `${date}|${preset}`;
    let set = this.byDaily.get(key);
    if (!set) {
      set = new Set();
      this.byDaily.set(key, set);
    }
    set.add(subscriber);
  }

  /** Removes a watcher from every daily (its socket closed). */
  removeAll(subscriber: Subscriber): void {
    for (const [key, set] of this.byDaily) {
      set.delete(subscriber);
      if (set.size === 0) this.byDaily.delete(key);
    }
  }

  /** Whether anyone watches this daily. */
  watched(date: string, preset: DailyPreset): boolean {
    return this.byDaily.has(`${date}|${preset}`);
  }

  /** Sends a frame to every watcher of a daily. */
  send(date: string, preset: DailyPreset, frame: ServerFrame): void {
    const set = this.byDaily.get(`${date}|${preset}`);
    if (!set) return;
    const text = JSON.stringify(frame);
    for (const s of set) s.send(text);
  }
}

/** A leaderboard row as the page shows it: provisional when the account is as new as the day. */
export function entryOf(r: ResultWithPlayer, rank: number, dayStart: Date): LeaderboardEntry {
  return {
    provisional: r.player.createdAt >= dayStart,
    rank,
    playerId: r.playerId,
    name: r.player.name,
    bot: r.player.bot,
    status: r.status,
    score: r.score,
    timeMs: r.timeMs,
    moves: r.moves,
    finishedAt: r.finishedAt.toISOString(),
    gameId: r.gameId,
  };
}

/**
 * A page of the daily `row`'s finished attempts on `query.board` in leaderboard order, or (`around=me`) the
 * page holding the row of player `me` (null: the caller has no row on this board).
 */
export async function leaderboardPage(
  repo: DailyRepository,
  row: DailyRow,
  preset: DailyPreset,
  query: LeaderboardQuery,
  me: string | null,
): Promise<Omit<Leaderboard, 'distribution'>> {
  const board = query.board;
  // Second accounts: rows of accounts created on the daily's date or later are provisional, left out of
  // the default view and its ranks (docs/features.md "Ranked rules").
  const dayStart = new Date(startOfDate(row.date));
  const established = query.include === 'provisional' ? undefined : dayStart;
  const [total, mine] = await Promise.all([
    repo.countOnBoard(row.id, board, established),
    me !== null ? repo.resultWithPlayer(row.id, me) : Promise.resolve(null),
  ]);
  const myRank = mine ? await repo.rankOf(mine, board, established) : null;
  const limit = query.limit;
  const offset = pageOffset(query, myRank);
  const rows = await repo.pageOfBoard(row.id, board, established, offset, limit);
  return {
    date: row.date,
    preset,
    nextCursor: null, // set by the route (infra/http/pagination.ts)
    board,
    par: row.par,
    parProven: row.parProven,
    total,
    offset,
    limit,
    entries: rows.map((r, i) => entryOf(r, offset + i + 1, dayStart)),
    me: mine && myRank !== null ? entryOf(mine, myRank, dayStart) : null,
  };
}

/**
 * The first row of a leaderboard page: `query.offset`, or with `around=me` the start of the page of `limit`
 * rows that holds the caller's rank (`myRank`, null when the caller has no row: then `query.offset`).
 */
export function pageOffset(
  query: Pick<LeaderboardQuery, 'around' | 'offset' | 'limit'>,
  myRank: number | null,
): number {
  return query.around === 'me' && myRank !== null
    ? Math.floor((myRank - 1) / query.limit) * query.limit
    : (query.offset ?? 0);
}

/** What the live leaderboards need. */
export interface LiveLeaderboardsOptions {
  readonly repository: DailyRepository;
  /** The fair-play signals' rows (fairness/signals.ts). */
  readonly fairness: FairnessRepository;
  readonly log: FastifyBaseLogger;
  /**
   * The bus to the other nodes (default: none): a leaderboard change is published on `leaderboards`, and
   * the watchers here hear the changes other nodes committed.
   */
  readonly bus?: EventBus;
}

/**
 * The live leaderboards of one node: its watchers, told of each row added (here, or on another node through
 * the bus channel `leaderboards`), and the fair-play signals recorded after each row, one day after another.
 */
export class LiveLeaderboards {
  /** Sockets watching daily leaderboards. */
  readonly watchers = new LeaderboardWatchers();
  /** Fair-play signals being recorded (one after another). */
  private signals: Promise<void> = Promise.resolve();
  /** Stops hearing other nodes' leaderboard changes (several nodes). */
  private readonly unlisten: (() => void) | undefined;

  /** Listens to `leaderboards` on a bus of several nodes. */
  constructor(private readonly opts: LiveLeaderboardsOptions) {
    if (opts.bus && opts.bus.kind !== 'single')
      this.unlisten = opts.bus.subscribe('leaderboards', (m) => {
        if (isLeaderboardFrame(m)) this.watchers.send(m.date, m.preset, m);
      });
  }

  /** The fair-play signals recorded so far are stored (resolves once the queue is empty; never rejects). */
  idle(): Promise<void> {
    return this.signals;
  }

  /** Starts sending `leaderboard` frames of daily `row` to a socket. Returns its people's row count. */
  async watch(row: DailyRow, subscriber: Subscriber): Promise<number> {
    this.watchers.add(row.date, row.preset as DailyPreset, subscriber);
    return this.opts.repository.countOnBoard(row.id, 'humans');
  }

  /** Called after a leaderboard row was added: records its day's signals, tells the daily's watchers. */
  resultAdded(daily: DailyRef): void {
    this.signals = this.signals
      .then(() => recordSignals(this.opts.fairness, daily.id))
      .then(
        () => undefined,
        (err: unknown) => this.opts.log.error({ err }, 'fair-play signals failed'),
      );
    const others = this.opts.bus && this.opts.bus.kind !== 'single' ? this.opts.bus : undefined;
    if (!others && !this.watchers.watched(daily.date, daily.preset)) return;
    this.opts.repository.countOnBoard(daily.id, 'humans').then(
      (total) => {
        const frame: LeaderboardFrame = {
          type: 'leaderboard',
          date: daily.date,
          preset: daily.preset,
          total,
        };
        this.watchers.send(daily.date, daily.preset, frame);
        others?.publish('leaderboards', frame);
      },
      (err: unknown) => this.opts.log.error({ err }, 'leaderboard notification failed'),
    );
  }

  /** Stops hearing other nodes' changes (the server is closing). */
  close(): void {
    this.unlisten?.();
  }
}
