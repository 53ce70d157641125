/**
 * REST calls of the puzzles (docs/puzzles.md): the next puzzle (optionally of a theme), one puzzle, the
 * puzzle of the day, an attempt, the caller's puzzle profile, and the timed run (start, answer, boards).
 * The routes go through the typed client's `api` (typed from the OpenAPI document); every answer is checked
 * with the protocol's puzzle schemas (packages/protocol/src/puzzles.ts).
 */
import type {
  DailyPuzzleSchema,
  Puzzle,
  PuzzleAttemptResult,
  PuzzleProfile,
  PuzzleRun,
  PuzzleRunAnswerSchema,
  PuzzleRunBoard,
  PuzzleTheme,
} from '@klondike/protocol';
import type { Move } from '@klondike/rules';
import type { z } from 'zod';
import { callRoute } from './api';

/** The puzzle of the day. */
export type DailyPuzzle = z.infer<typeof DailyPuzzleSchema>;
/** A timed run's answer: whether it was right, the solution and the run after it. */
export type PuzzleRunAnswer = z.infer<typeof PuzzleRunAnswerSchema>;

/** GET /api/puzzles/next: a puzzle near the caller's puzzle rating (of `theme` when given). */
export function getNextPuzzle(theme: PuzzleTheme | null): Promise<Puzzle> {
  return callRoute(
    (api) => api.GET('/api/puzzles/next', { params: { query: theme ? { theme } : {} } }),
    (p) => p.PuzzleSchema,
  );
}

/** GET /api/puzzles/:id: one puzzle (404 `not-found` for an unknown id). */
export function getPuzzle(id: string): Promise<Puzzle> {
  return callRoute(
    (api) => api.GET('/api/puzzles/{id}', { params: { path: { id } } }),
    (p) => p.PuzzleSchema,
  );
}

/** GET /api/puzzles/daily: the puzzle of the day (the same for everyone on a UTC date). */
export function getDailyPuzzle(): Promise<DailyPuzzle> {
  return callRoute(
    (api) => api.GET('/api/puzzles/daily', {}),
    (p) => p.DailyPuzzleSchema,
  );
}

/** POST /api/puzzles/:id/attempt: the verdict, the solution and the ratings before and after. */
export function attemptPuzzle(id: string, moves: readonly Move[]): Promise<PuzzleAttemptResult> {
  return callRoute(
    (api) => api.POST('/api/puzzles/{id}/attempt', { params: { path: { id } }, body: { moves: [...moves] } }),
    (p) => p.PuzzleAttemptResultSchema,
  );
}

/** GET /api/puzzles/me: the caller's puzzle rating, its history and results by theme (a player's token). */
export function getPuzzleProfile(): Promise<PuzzleProfile> {
  return callRoute(
    (api) => api.GET('/api/puzzles/me', {}),
    (p) => p.PuzzleProfileSchema,
  );
}

/** POST /api/puzzles/runs: starts a timed run (the server keeps its clock). */
export function startPuzzleRun(): Promise<PuzzleRun> {
  return callRoute(
    (api) => api.POST('/api/puzzles/runs', {}),
    (p) => p.PuzzleRunSchema,
  );
}

/**
 * POST /api/puzzles/runs/:id/answer: the answer to the run's current puzzle (409 `conflict` when `puzzleId` is
 * no longer the run's current puzzle).
 */
export function answerPuzzleRun(
  runId: string,
  puzzleId: string,
  moves: readonly Move[],
): Promise<PuzzleRunAnswer> {
  return callRoute(
    (api) =>
      api.POST('/api/puzzles/runs/{id}/answer', {
        params: { path: { id: runId } },
        body: { puzzleId, moves: [...moves] },
      }),
    (p) => p.PuzzleRunAnswerSchema,
  );
}

/** GET /api/puzzles/runs/board: today's (UTC) best runs or the all-time ones, and the caller's row. */
export function getPuzzleRunBoard(period: 'day' | 'all', limit = 20): Promise<PuzzleRunBoard> {
  return callRoute(
    (api) => api.GET('/api/puzzles/runs/board', { params: { query: { period, limit } } }),
    (p) => p.PuzzleRunBoardSchema,
  );
}
