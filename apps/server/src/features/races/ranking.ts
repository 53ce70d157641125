/**
 * The pure parts of races: invite codes, a racer's progress from their game's view, the final placements,
 * and whether every racer has finished. No I/O.
 */
import { randomBytes } from 'node:crypto';
import { RaceProgressSchema } from '@klondike/protocol';
import { foundationCount } from '@klondike/rules';
import type { WireView } from '../../core/rooms/game-rooms.js';
import type { RaceProgress } from './events.js';
import type { RaceRow, RacerRow } from './repository.js';

/** The alphabet of invite codes (RaceCodeSchema): 32 characters without 0 O 1 I. */
export const RACE_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** Characters of an invite code (10 × 5 bits = 50 bits). */
export const RACE_CODE_LENGTH = 10;
/** A new invite code from crypto randomness (32 divides 256: no bias). */
export function newRaceCode(): string {
  const bytes = randomBytes(RACE_CODE_LENGTH);
  let code = '';
  for (const b of bytes) code += RACE_CODE_ALPHABET[b & 31];
  return code;
}

/** Share link of a room. */
export function raceUrl(code: string): string {
  return `/race/${code}`;
}

/** A racer's progress from their game's view: counts only (the view's cards are dropped here). */
export function progressOf(view: WireView, elapsedMs: number): RaceProgress {
  return {
    foundationCards: foundationCount(view.foundations),
    faceDown: view.tableau.reduce((n, p) => n + p.faceDown, 0),
    moves: view.moves,
    score: view.score,
    elapsedMs: Math.max(0, Math.round(elapsedMs)),
    status: view.status,
  };
}

/** What `rankRacers` orders. */
export interface RankEntry {
  readonly playerId: string;
  readonly seat: number;
  readonly progress: RaceProgress;
}

/**
 * Final placements (1-based; equal standings share a place and the next place is skipped: 1, 1, 3):
 * winners first, by time (less first); then the other racers by cards on the foundations (more first), then
 * score (higher first), and racers equal on both tie whatever their time (time breaks ties only between
 * winners, so resigning early earns nothing); forfeited racers last, ordered among themselves the same way.
 * Seat order only orders the entries of a shared place.
 */
export function rankRacers(entries: readonly RankEntry[]): Map<string, number> {
  const group = (p: RaceProgress): number => (p.status === 'won' ? 0 : p.status === 'forfeited' ? 2 : 1);
  /** Negative when `a` places before `b`, 0 when they tie. */
  const standing = (a: RaceProgress, b: RaceProgress): number => {
    const g = group(a) - group(b);
    if (g !== 0) return g;
    if (a.status === 'won') return a.elapsedMs - b.elapsedMs;
    if (a.foundationCards !== b.foundationCards) return b.foundationCards - a.foundationCards;
    return b.score - a.score;
  };
  const sorted = [...entries].sort((a, b) => standing(a.progress, b.progress) || a.seat - b.seat);
  const places = new Map<string, number>();
  sorted.forEach((e, i) => {
    const before = sorted[i - 1];
    const shared = before !== undefined && standing(before.progress, e.progress) === 0;
    places.set(e.playerId, shared ? (places.get(before.playerId) ?? i + 1) : i + 1);
  });
  return places;
}

/**
 * Whether a racer's result is rated (docs/ratings.md "Consent"): a racer who never made a move (`moves` 0 in
 * their final progress) and never had a race socket in the room (`connectedAt` null) is void, neither
 * winner nor loser, so a room cannot rate an absent player. Placements are unchanged: a void racer is
 * placed, just not rated.
 */
export function ratedRacer(connectedAt: Date | null, progress: RaceProgress): boolean {
  return connectedAt !== null || progress.moves > 0;
}

/** The statuses a racer ends with. */
export const TERMINAL = new Set<RaceProgress['status']>([
  'won',
  'blocked',
  'resigned',
  'forfeited',
  'timeout',
  'unfinished',
]);

/** A racer's stored progress, or null before the race ran. */
export function progressOfRow(r: RacerRow): RaceProgress | null {
  if (r.progress === null) return null;
  const p = RaceProgressSchema.parse(r.progress);
  return r.forfeited ? { ...p, status: 'forfeited' } : p;
}

/** Every racer has a final status (won, blocked, resigned, forfeited …). */
export function allDone(row: RaceRow): boolean {
  return row.racers.every((r) => {
    const p = progressOfRow(r);
    return p !== null && TERMINAL.has(p.status);
  });
}
