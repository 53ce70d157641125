/**
 * The caller's current game (GET /api/me/games/current, docs/features.md "Resuming a game"): the unfinished game of
 * theirs they acted on last, which `/` resumes on any device signed in as them.
 *
 * Candidates are the player's own games (`Game.playerId`: created with one of their tokens, so they take
 * that player's actions only, from any of their devices) whose status is `playing` — a blocked game
 * (docs/rules.md R13) is not resumed, as `/` does not resume it in the browser either — of every kind but
 * `race` (a race game stays with its race page), a ranked daily attempt only while its day is open (it takes
 * no more moves after). The most recent is the one whose last action was stored last (`Game.updatedAt`, set
 * by every commit and at creation).
 */
import type { CurrentGame } from '@klondike/protocol';
import { DailyPresetSchema, PresetSchema } from '@klondike/protocol';
import { utcDate } from '../../infra/dates.js';
import type { CurrentGameRow, PlayerRepository } from './repository.js';

/**
 * The player's current game at server time `now` (ms since the epoch), or null when they have no
 * unfinished game. Reads the database only (the source of truth every node commits to before answering a
 * move), so a game moved through another node is seen at once.
 */
export async function currentGame(
  repo: PlayerRepository,
  playerId: string,
  now: number,
): Promise<CurrentGame | null> {
  // A ranked attempt of a closed day takes no more moves (docs/features.md "Ranked rules").
  const g = await repo.currentGame(playerId, utcDate(now));
  return g === null ? null : currentGameOf(g);
}

/** A stored current game as GET /api/me/games/current answers it (its kind from its daily and ranking). */
export function currentGameOf(g: CurrentGameRow): CurrentGame {
  const preset = PresetSchema.safeParse(g.preset);
  return {
    id: g.id,
    kind: g.daily === null ? 'casual' : g.ranked ? 'daily-ranked' : 'daily-practice',
    preset: preset.success ? preset.data : null,
    daily: g.daily === null ? null : { date: g.daily.date, preset: DailyPresetSchema.parse(g.daily.preset) },
    version: g.version,
    moves: g.moves,
    lastActionAt: g.updatedAt.toISOString(),
  };
}
