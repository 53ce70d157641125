/**
 * Pure helpers of live races: server clock sync and the 3-2-1 countdown, a racer's race time, placements
 * (sorting and ordinals), the progress bar, and labels. Everything here takes its clock as an argument.
 */
import type { Race } from '@klondike/protocol';
import type { z } from 'zod';
import type { RaceProgressSchema, RacerSchema } from '@klondike/protocol';
import { formatTime } from './format';
import { i18n, tr } from '../i18n';

export type Racer = z.infer<typeof RacerSchema>;
export type RaceProgress = z.infer<typeof RaceProgressSchema>;

/** Cards in a full deck: a racer with all of them on the foundations has won. */
export const DECK = 52;

/** Path of a race room. */
export function racePath(code: string): string {
  return `/race/${encodeURIComponent(code)}`;
}

/** The absolute invite link of a room (`race.url` is relative). */
export function inviteLink(origin: string, url: string): string {
  return new URL(url, origin).toString();
}

/**
 * Offset of the server's clock from ours, ms (server − local), from a `serverNow` read at local time
 * `receivedAt`. The server built the message a little before we got it, so this errs late by the transit
 * time: a countdown ends a few ms after the server's, never before.
 */
export function clockOffset(serverNow: string, receivedAt: number): number {
  const t = Date.parse(serverNow);
  return Number.isFinite(t) ? t - receivedAt : 0;
}

/** Server time now, estimated from the local clock and the offset. */
export function serverTime(localNow: number, offset: number): number {
  return localNow + offset;
}

/** Milliseconds until the race starts (negative once started), or null without a start time. */
export function msUntilStart(startsAt: string | null, localNow: number, offset: number): number | null {
  if (!startsAt) return null;
  const t = Date.parse(startsAt);
  return Number.isFinite(t) ? t - serverTime(localNow, offset) : null;
}

/** What the countdown overlay shows: a digit (3, 2, 1…), `GO` for a moment after the start, or nothing. */
export type CountdownFace = { kind: 'digit'; n: number } | { kind: 'go' } | { kind: 'none' };

/** How long `GO` stays after the start, ms. */
export const GO_MS = 900;

/**
 * The countdown face for `msLeft` (from msUntilStart) of a countdown `countdownMs` long. The local estimate
 * of the server clock errs late by the frame's transit time, so `msLeft` can exceed the countdown's length
 * on a slow link or a loaded machine: the digit is capped at the countdown's whole seconds (3-2-1 for 3 s,
 * never a 4).
 */
export function countdownFace(msLeft: number | null, countdownMs: number): CountdownFace {
  if (msLeft === null) return { kind: 'none' };
  if (msLeft > 0) {
    const top = Math.max(1, Math.ceil(countdownMs / 1000));
    return { kind: 'digit', n: Math.min(top, Math.ceil(msLeft / 1000)) };
  }
  if (msLeft > -GO_MS) return { kind: 'go' };
  return { kind: 'none' };
}

/** Racer statuses that end a racer's game. */
export function isDone(p: RaceProgress | null): boolean {
  return !!p && p.status !== 'playing';
}

/**
 * A racer's race time to show: the final time once their game has ended, else the race clock (server time
 * since the start), never less than their last reported time.
 */
export function racerTime(
  p: RaceProgress | null,
  startsAt: string | null,
  localNow: number,
  offset: number,
): number {
  if (p && isDone(p)) return p.elapsedMs;
  const left = msUntilStart(startsAt, localNow, offset);
  const clock = left === null ? 0 : Math.max(0, -left);
  return Math.max(clock, p?.elapsedMs ?? 0);
}

/** Time left under a time limit, ms (null: no limit or not started). */
export function timeLeft(race: Pick<Race, 'timeLimitMs' | 'startsAt'>, localNow: number, offset: number) {
  if (race.timeLimitMs === null) return null;
  const left = msUntilStart(race.startsAt, localNow, offset);
  if (left === null) return null;
  return Math.max(0, race.timeLimitMs + Math.min(0, left));
}

/** Foundation progress as a percentage 0 … 100 (one decimal). */
export function progressPercent(p: RaceProgress | null): number {
  const n = Math.max(0, Math.min(DECK, p?.foundationCards ?? 0));
  return Math.round((n / DECK) * 1000) / 10;
}

const STATUS_RANK: Record<RaceProgress['status'], number> = {
  won: 0,
  playing: 1,
  timeout: 1,
  unfinished: 1,
  blocked: 2,
  resigned: 3,
  forfeited: 4,
};

/**
 * Racers in standing order: by final placement when the server gave one, else winners first (faster first),
 * then by foundation cards, fewer face-down cards, and the racer who got there sooner; racers without
 * progress last; ties by name. Returns a new array.
 */
export function standings<R extends Pick<Racer, 'name' | 'placement' | 'progress'>>(
  racers: readonly R[],
): R[] {
  return [...racers].sort((a, b) => {
    if (a.placement !== null || b.placement !== null) {
      if (a.placement === null) return 1;
      if (b.placement === null) return -1;
      if (a.placement !== b.placement) return a.placement - b.placement;
    }
    const pa = a.progress;
    const pb = b.progress;
    if (!pa || !pb) {
      if (pa) return -1;
      if (pb) return 1;
      return a.name.localeCompare(b.name);
    }
    const sa = STATUS_RANK[pa.status];
    const sb = STATUS_RANK[pb.status];
    if (sa === 0 || sb === 0) {
      if (sa !== sb) return sa - sb;
      if (pa.elapsedMs !== pb.elapsedMs) return pa.elapsedMs - pb.elapsedMs;
    }
    if (pa.foundationCards !== pb.foundationCards) return pb.foundationCards - pa.foundationCards;
    if (pa.faceDown !== pb.faceDown) return pa.faceDown - pb.faceDown;
    if (sa !== sb) return sa - sb;
    if (pa.elapsedMs !== pb.elapsedMs) return pa.elapsedMs - pb.elapsedMs;
    return a.name.localeCompare(b.name);
  });
}

/**
 * A place in the current language: `1` → `1st`, `2` → `2nd`, `11` → `11th`, `23` → `23rd` in English
 * (`1er`/`2e`, `1.`, `1.º` elsewhere), by the language's ordinal plural rule (`Intl.PluralRules`).
 */
export function ordinal(n: number): string {
  const rule = new Intl.PluralRules(i18n.global.locale.value, { type: 'ordinal' }).select(n);
  const form = rule === 'one' || rule === 'two' || rule === 'few' ? rule : 'other';
  return tr(`race.ordinal.${form}`, { n });
}

/** A racer's status in words, in the current language. */
export function progressLabel(status: RaceProgress['status']): string {
  return tr(`race.progress.${status}`);
}

/** Presence in words, in the current language. */
export function presenceLabel(presence: Racer['presence']): string {
  return tr(`race.presence.${presence}`);
}

/** One line of a racer's stats: `34/52 · 120 moves · 85 pts · 4:05` (in the current language). */
export function statsLine(p: RaceProgress): string {
  return tr('race.statsLine', {
    cards: p.foundationCards,
    total: DECK,
    moves: tr('common.moves', {}, p.moves),
    score: p.score,
    time: formatTime(p.elapsedMs),
  });
}

/** Whether the host may start: in the lobby with at least two racers. */
export function canStart(race: Pick<Race, 'status' | 'racers'>): boolean {
  return race.status === 'lobby' && race.racers.length >= 2;
}

/** Whether a visitor (not a racer) may join: in the lobby with a free seat. */
export function canJoin(race: Pick<Race, 'status' | 'racers' | 'maxPlayers' | 'you'>): boolean {
  return race.you === null && race.status === 'lobby' && race.racers.length < race.maxPlayers;
}

/** Applies a `race-progress` frame to a room (a new room object; unchanged when the racer is unknown). */
export function withProgress(race: Race, playerId: string, progress: RaceProgress): Race {
  if (!race.racers.some((r) => r.playerId === playerId)) return race;
  return {
    ...race,
    racers: race.racers.map((r) => (r.playerId === playerId ? { ...r, progress } : r)),
  };
}
