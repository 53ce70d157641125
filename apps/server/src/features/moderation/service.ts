/**
 * Moderation (docs/moderation.md; issue 55 items 3–6): reports, the moderators' queue and actions (mark with
 * rating refunds, unmark, rename, close, dismiss, appeal decisions), the marked player's standing and
 * appeal, the audit log and the published figures. Answers in the shapes of packages/protocol's fair-play.ts;
 * refuses with `ApiError`s (changing nothing).
 */
import type {
  Appeal,
  FairPlayFlag,
  FairPlayStanding,
  FairPlayStats,
  GameSignals,
  Report,
  ReportBody,
} from '@klondike/protocol';
import { z } from 'zod';
import { ApiError } from '../../infra/errors.js';
import { nameKey, nameSkeleton } from '../players/players.js';
import { refundsOf, type Refund } from './refunds.js';
import type {
  ActionRow,
  Actor,
  AppealRow,
  FlagRow,
  MarkRow,
  ModerationRepository,
  ModPlayerRow,
  ReportRow,
  SignalsRow,
} from './repository.js';
import { fairPlayStats } from './stats.js';

/** Recent games with their signals shown per player in the queue and on a player's view. */
export const QUEUE_GAMES = 10;
/** Players listed in the queue at most (the longest waiting first). */
export const QUEUE_LIMIT = 100;

/** The result of a mark or unmark (MarkResultSchema). */
export interface MarkResult {
  readonly playerId: string;
  readonly marked: boolean;
  readonly refunds: Refund[];
}

const iso = (d: Date): string => d.toISOString();
const isoOrNull = (d: Date | null): string | null => (d === null ? null : d.toISOString());
const JsonObject = z.record(z.string(), z.unknown());
const objectOf = (v: unknown): Record<string, unknown> => JsonObject.safeParse(v).data ?? {};

/** A report row as the protocol shows it. */
export function reportView(r: ReportRow): Report {
  return {
    id: r.id,
    reporterId: r.reporterId,
    playerId: r.playerId,
    reason: r.reason as Report['reason'],
    gameId: r.gameId,
    text: r.text,
    createdAt: iso(r.createdAt),
    status: r.closedAt === null ? 'open' : r.outcome === 'marked' ? 'marked' : 'dismissed',
  };
}

/** A flag row as the protocol shows it. */
export function flagView(f: FlagRow): FairPlayFlag {
  return {
    id: f.id,
    playerId: f.playerId,
    gameId: f.gameId,
    reason: f.reason,
    evidence: objectOf(f.evidence),
    createdAt: iso(f.createdAt),
    closedAt: isoOrNull(f.closedAt),
  };
}

/** An appeal row as the protocol shows it. */
export function appealView(a: AppealRow): Appeal {
  return {
    id: a.id,
    playerId: a.playerId,
    markId: a.markId,
    text: a.text,
    createdAt: iso(a.createdAt),
    status: a.decidedAt === null ? 'open' : a.outcome === 'granted' ? 'granted' : 'denied',
    answer: a.answer,
    decidedAt: isoOrNull(a.decidedAt),
  };
}

function markView(m: MarkRow) {
  return {
    id: m.id,
    playerId: m.playerId,
    reason: m.reason,
    createdAt: iso(m.createdAt),
    liftedAt: isoOrNull(m.liftedAt),
  };
}

function playerView(p: ModPlayerRow) {
  return {
    id: p.id,
    name: p.name,
    bot: p.bot,
    createdAt: iso(p.createdAt),
    markedAt: isoOrNull(p.markedAt),
    closedAt: isoOrNull(p.closedAt),
  };
}

function signalsView(s: SignalsRow): GameSignals {
  const flags = z.array(z.string()).safeParse(s.flags).data ?? [];
  return {
    gameId: s.gameId,
    playerId: s.playerId,
    kind: s.kind as GameSignals['kind'],
    moves: s.moves,
    medianGapMs: s.medianGapMs,
    fastShare: s.fastShare,
    gapVariation: s.gapVariation,
    solverAgreement: s.solverAgreement,
    hiddenChoices: s.hiddenChoices,
    hiddenHits: s.hiddenHits,
    flags,
    computedAt: iso(s.computedAt),
  };
}

function actionView(a: ActionRow) {
  return {
    id: a.id,
    moderatorId: a.moderatorId,
    moderatorName: a.moderatorName,
    action: a.action,
    playerId: a.playerId,
    reason: a.reason,
    details: objectOf(a.details),
    createdAt: iso(a.createdAt),
  };
}

/** The moderation feature's service. */
export class ModerationService {
  private readonly configured: ReadonlySet<string>;

  /**
   * `repo`: the moderation rows; `moderators`: the `MODERATORS` setting's player ids; `now`: the server
   * clock (ms); `hooks.closed`: tells every node that the player's tokens are revoked
   * (players/token-revocation.ts), called after a close commits; `hooks.renamed`: forgets the player's cached
   * tokens (their name changed), called after a rename commits.
   */
  constructor(
    private readonly repo: ModerationRepository,
    moderators: readonly string[],
    private readonly now: () => number,
    private readonly hooks: { closed(playerId: string): void; renamed(playerId: string): void },
  ) {
    this.configured = new Set(moderators);
  }

  /** Whether player `playerId` is a moderator: named by `MODERATORS` or by a `Moderator` row (the CLI). */
  async isModerator(playerId: string): Promise<boolean> {
    return this.configured.has(playerId) || (await this.repo.isModeratorRow(playerId));
  }

  private actor(moderatorId: string, reason: string): Actor {
    return { moderatorId, reason, at: new Date(this.now()) };
  }

  /**
   * Files `reporterId`'s report. Errors: `not-found` for an unknown player or game; `bad-request` for a
   * report of oneself; `forbidden` when the reporter's own account is marked or closed (their reports would
   * only add noise to the queue); `conflict` while the reporter has an open report about the same player.
   */
  async report(reporterId: string, body: ReportBody): Promise<Report> {
    if (body.playerId === reporterId) throw new ApiError('bad-request', 'you cannot report yourself');
    const [reporter, player] = await Promise.all([
      this.repo.player(reporterId),
      this.repo.player(body.playerId),
    ]);
    if (reporter === null) throw new ApiError('unauthorized', 'unknown player');
    if (reporter.markedAt !== null || reporter.closedAt !== null)
      throw new ApiError('forbidden', 'a marked or closed account cannot report');
    if (player === null) throw new ApiError('not-found', `no player ${body.playerId}`);
    if (body.gameId !== undefined && !(await this.repo.gameExists(body.gameId)))
      throw new ApiError('not-found', `no game ${body.gameId}`);
    const row = await this.repo.insertReport({
      reporterId,
      playerId: body.playerId,
      reason: body.reason,
      gameId: body.gameId ?? null,
      text: body.text === undefined || body.text === '' ? null : body.text,
      createdAt: new Date(this.now()),
    });
    if (row === 'conflict')
      throw new ApiError('conflict', 'you already have an open report about this player');
    return reportView(row);
  }

  /** Player `playerId`'s own standing: their open mark, its appeal, whether they may appeal. */
  async standing(playerId: string): Promise<FairPlayStanding> {
    const marks = await this.repo.marks(playerId);
    const open = marks.find((m) => m.liftedAt === null) ?? null;
    // Once a mark is lifted the player still sees the outcome of their last mark's appeal.
    const latest = open ?? marks[0] ?? null;
    const appeal = latest === null ? null : await this.repo.appealOf(latest.id);
    return {
      marked: open !== null,
      mark: open === null ? null : markView(open),
      appeal: appeal === null ? null : appealView(appeal),
      canAppeal: open !== null && appeal === null,
    };
  }

  /**
   * Files player `playerId`'s appeal against their open mark. Errors: `forbidden` when they are not marked;
   * `conflict` when the mark already has an appeal (one per mark).
   */
  async appeal(playerId: string, text: string): Promise<Appeal> {
    const open = (await this.repo.marks(playerId)).find((m) => m.liftedAt === null);
    if (open === undefined) throw new ApiError('forbidden', 'only a marked player can appeal');
    const row = await this.repo.insertAppeal(playerId, open.id, text, new Date(this.now()));
    if (row === 'conflict') throw new ApiError('conflict', 'this mark has been appealed already');
    return appealView(row);
  }

  /** The published figures by month. */
  async stats(): Promise<FairPlayStats> {
    return fairPlayStats(await this.repo.counts());
  }

  /** The moderators' queue: players with an open flag, report or appeal, the longest waiting first. */
  async queue() {
    const entries = await this.repo.queue(QUEUE_LIMIT, QUEUE_GAMES);
    return { entries: entries.map((e) => this.entryView(e)) };
  }

  private entryView(e: NonNullable<Awaited<ReturnType<ModerationRepository['entry']>>>) {
    return {
      player: playerView(e.player),
      flags: e.flags.map(flagView),
      reports: e.reports.map(reportView),
      appeal: e.appeal === null ? null : appealView(e.appeal),
      games: e.games.map(signalsView),
    };
  }

  /** Everything moderators know about player `playerId`. Errors: `not-found`. */
  async playerView(playerId: string) {
    const entry = await this.repo.entry(playerId, QUEUE_GAMES);
    if (entry === null) throw new ApiError('not-found', `no player ${playerId}`);
    const [marks, reports, actions] = await Promise.all([
      this.repo.marks(playerId),
      this.repo.reportsAbout(playerId, 200),
      this.repo.log({ limit: 200, playerId }),
    ]);
    return {
      ...this.entryView(entry),
      marks: marks.map(markView),
      allReports: reports.map(reportView),
      actions: actions.map(actionView),
    };
  }

  /**
   * Marks player `playerId` (docs/moderation.md "Marks"): refunds every opponent they beat in a rated race.
   * Errors: `not-found`; `conflict` when already marked; `forbidden` when a moderator marks themselves.
   */
  async mark(moderatorId: string, playerId: string, reason: string): Promise<MarkResult> {
    if (playerId === moderatorId) throw new ApiError('forbidden', 'a moderator cannot mark themselves');
    const r = await this.repo.mark(playerId, this.actor(moderatorId, reason), (races) =>
      refundsOf(playerId, races),
    );
    if (r === 'missing') throw new ApiError('not-found', `no player ${playerId}`);
    if (r === 'conflict') throw new ApiError('conflict', 'this player is marked already');
    return { playerId, marked: true, refunds: r };
  }

  /** Lifts player `playerId`'s mark and takes back its refunds. Errors: `not-found`; `conflict` when not marked. */
  async unmark(moderatorId: string, playerId: string, reason: string): Promise<MarkResult> {
    const r = await this.repo.unmark(playerId, this.actor(moderatorId, reason));
    if (r === 'missing') throw new ApiError('not-found', `no player ${playerId}`);
    if (r === 'conflict') throw new ApiError('conflict', 'this player is not marked');
    return { playerId, marked: false, refunds: r };
  }

  /**
   * Renames player `playerId` under the players' name rules (the name key and confusable skeleton of
   * players/players.ts). Errors: `not-found`; `conflict` when the name or a look-alike is taken.
   */
  async rename(moderatorId: string, playerId: string, name: string, reason: string) {
    const r = await this.repo.rename(
      playerId,
      { name, nameKey: nameKey(name), nameSkeleton: nameSkeleton(name) },
      this.actor(moderatorId, reason),
    );
    if (r === 'missing') throw new ApiError('not-found', `no player ${playerId}`);
    if (r === 'taken') throw new ApiError('conflict', `the name "${name}" is taken`);
    this.hooks.renamed(playerId);
    return this.playerView(playerId);
  }

  /**
   * Closes player `playerId`'s account: every token deleted and revoked on every node (their sockets are
   * closed). Errors: `not-found`; `conflict` when already closed; `forbidden` for oneself.
   */
  async close(moderatorId: string, playerId: string, reason: string) {
    if (playerId === moderatorId)
      throw new ApiError('forbidden', 'a moderator cannot close their own account');
    const r = await this.repo.close(playerId, this.actor(moderatorId, reason));
    if (r === 'missing') throw new ApiError('not-found', `no player ${playerId}`);
    if (r === 'conflict') throw new ApiError('conflict', 'this account is closed already');
    this.hooks.closed(playerId);
    return this.playerView(playerId);
  }

  /** Closes player `playerId`'s open flags and reports without a mark. Errors: `conflict` when none is open. */
  async dismiss(moderatorId: string, playerId: string, reason: string) {
    if ((await this.repo.player(playerId)) === null) throw new ApiError('not-found', `no player ${playerId}`);
    const r = await this.repo.dismiss(playerId, this.actor(moderatorId, reason));
    if (r === 'conflict') throw new ApiError('conflict', 'this player has no open flag or report');
    return this.playerView(playerId);
  }

  /**
   * Decides appeal `id`: granted lifts the mark (and takes back its refunds). Errors: `not-found`;
   * `conflict` when already decided.
   */
  async decideAppeal(
    moderatorId: string,
    id: number,
    outcome: 'granted' | 'denied',
    answer: string,
  ): Promise<Appeal> {
    const r = await this.repo.decideAppeal(id, outcome, answer, this.actor(moderatorId, answer));
    if (r === 'missing') throw new ApiError('not-found', `no appeal ${id}`);
    if (r === 'conflict') throw new ApiError('conflict', 'this appeal has been decided already');
    const row = await this.repo.appeal(id);
    return appealView(row ?? r.appeal);
  }

  /** A page of the audit log, newest first, before action id `before`. */
  async log(before: number | undefined, limit: number) {
    const rows = await this.repo.log({ ...(before !== undefined ? { before } : {}), limit: limit + 1 });
    const page = rows.slice(0, limit);
    return { entries: page.map(actionView), next: rows.length > limit ? (page.at(-1)?.id ?? null) : null };
  }
}
