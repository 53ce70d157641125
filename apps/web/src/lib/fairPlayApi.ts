/**
 * REST calls of fair play (docs/fair-play.md, docs/moderation.md): reports, the caller's own standing and appeal, the published
 * figures, and the moderators' routes (queue, player view, actions, appeal decisions, audit log), through the
 * typed client (`client.api`, typed from the server's OpenAPI document). Every answer is checked with the
 * protocol's schemas (packages/protocol/src/fair-play.ts); a refusal rejects with ApiError (errors.ts):
 * `conflict` (409: already reported, already appealed, already marked), `rate-limited` (429), `forbidden`
 * (403: not a moderator), `unauthorized` (401: no token), `not-found` (404).
 */
import type { AppealDecisionBodySchema, ReportBody } from '@klondike/protocol';
import type { z } from 'zod';
import { callRoute } from './api';
import type { Protocol } from './schemas';

/** A report as its reporter sees it. */
export type Report = z.infer<Protocol['ReportSchema']>;
/** The caller's own standing: their open mark, its appeal and whether they may still appeal. */
export type FairPlayStanding = z.infer<Protocol['FairPlayStandingSchema']>;
/** An appeal. */
export type Appeal = z.infer<Protocol['AppealSchema']>;
/** The published figures, by month, newest first. */
export type FairPlayStats = z.infer<Protocol['FairPlayStatsSchema']>;
/** The moderators' queue. */
export type ModQueue = z.infer<Protocol['ModQueueSchema']>;
/** One player of the queue: flags, reports, appeal and recent rated games' signals. */
export type ModQueueEntry = ModQueue['entries'][number];
/** Everything moderators know about one player. */
export type ModPlayerView = z.infer<Protocol['ModPlayerViewSchema']>;
/** A page of the audit log. */
export type ModLog = z.infer<Protocol['ModLogSchema']>;
/** The signals of one finished rated game. */
export type GameSignals = z.infer<Protocol['GameSignalsSchema']>;
/** A mark's or an unmark's result: the refunds given or taken back. */
export type MarkResult = z.infer<Protocol['MarkResultSchema']>;
/** A moderator's action on a player that takes only a reason. */
export type ModAction = 'mark' | 'unmark' | 'close' | 'dismiss';
/** An appeal's outcome. */
export type AppealOutcome = z.infer<typeof AppealDecisionBodySchema>['outcome'];

/** POST /api/reports: reports `body.playerId` (201 Report; 409 `conflict` when the caller has one open on them). */
export function reportPlayer(body: ReportBody): Promise<Report> {
  return callRoute(
    (api) => api.POST('/api/reports', { body }),
    (p) => p.ReportSchema,
  );
}

/** GET /api/me/fair-play: the caller's standing (a token is needed). */
export function getMyFairPlay(): Promise<FairPlayStanding> {
  return callRoute(
    (api) => api.GET('/api/me/fair-play', {}),
    (p) => p.FairPlayStandingSchema,
  );
}

/** POST /api/appeals: the marked caller's one appeal (10–2000 characters; 409 when already appealed). */
export function sendAppeal(text: string): Promise<Appeal> {
  return callRoute(
    (api) => api.POST('/api/appeals', { body: { text } }),
    (p) => p.AppealSchema,
  );
}

/** GET /api/fair-play/stats: the published figures (public). */
export function getFairPlayStats(): Promise<FairPlayStats> {
  return callRoute(
    (api) => api.GET('/api/fair-play/stats', {}),
    (p) => p.FairPlayStatsSchema,
  );
}

/** GET /api/mod/queue (moderators; 403 `forbidden` to others). */
export function getModQueue(): Promise<ModQueue> {
  return callRoute(
    (api) => api.GET('/api/mod/queue', {}),
    (p) => p.ModQueueSchema,
  );
}

/** GET /api/mod/players/:id (moderators): the player view. */
export function getModPlayer(id: string): Promise<ModPlayerView> {
  return callRoute(
    (api) => api.GET('/api/mod/players/{id}', { params: { path: { id } } }),
    (p) => p.ModPlayerViewSchema,
  );
}

/**
 * POST /api/mod/players/:id/{mark,unmark,close,dismiss} (moderators) with the reason (3–500 characters):
 * a MarkResult (the refunds) for mark and unmark, the player view for close and dismiss. 409 `conflict` when
 * already done (marking a marked player, unmarking an unmarked one).
 */
export function modAct(id: string, action: ModAction, reason: string): Promise<MarkResult | ModPlayerView> {
  const params = { path: { id } };
  const body = { reason };
  if (action === 'mark' || action === 'unmark')
    return callRoute(
      (api) =>
        action === 'mark'
          ? api.POST('/api/mod/players/{id}/mark', { params, body })
          : api.POST('/api/mod/players/{id}/unmark', { params, body }),
      (p) => p.MarkResultSchema,
    );
  return callRoute(
    (api) =>
      action === 'close'
        ? api.POST('/api/mod/players/{id}/close', { params, body })
        : api.POST('/api/mod/players/{id}/dismiss', { params, body }),
    (p) => p.ModPlayerViewSchema,
  );
}

/** POST /api/mod/players/:id/rename (moderators): a new name and why; the player view after it. */
export function modRename(id: string, name: string, reason: string): Promise<ModPlayerView> {
  return callRoute(
    (api) => api.POST('/api/mod/players/{id}/rename', { params: { path: { id } }, body: { name, reason } }),
    (p) => p.ModPlayerViewSchema,
  );
}

/** POST /api/mod/appeals/:id/decide (moderators): grants (the mark is lifted) or denies an appeal. */
export function decideAppeal(id: number, outcome: AppealOutcome, answer: string): Promise<Appeal> {
  return callRoute(
    (api) =>
      api.POST('/api/mod/appeals/{id}/decide', { params: { path: { id } }, body: { outcome, answer } }),
    (p) => p.AppealSchema,
  );
}

/** GET /api/mod/log (moderators): a page of the audit log, newest first, before the action id `before`. */
export function getModLog(before?: number, limit = 50): Promise<ModLog> {
  const query = before === undefined ? { limit } : { before, limit };
  return callRoute(
    (api) => api.GET('/api/mod/log', { params: { query } }),
    (p) => p.ModLogSchema,
  );
}
