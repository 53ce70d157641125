/**
 * The Puzzles page's state (docs/puzzles.md): the puzzle on the table (the next one near the player's puzzle
 * rating, of the chosen theme, or the puzzle of the day), the attempt played on the table and sent when
 * complete, then the verdict (correct or not, the rating before → after) and the solution played out; the
 * player's puzzle profile (rating, its history, results by theme) and the puzzle of the day. Components render
 * it.
 *
 * Phases: `loading` (a puzzle is being fetched), `playing` (the attempt is open), `sending` (the answer is on
 * its way), `result` (the verdict and the solution are shown), `error` (no puzzle: `error` says why).
 */
import type { Puzzle, PuzzleAttemptResult, PuzzleProfile, PuzzleTheme } from '@klondike/protocol';
import type { Move } from '@klondike/rules';
import { ref, shallowRef, watch } from 'vue';
import { tr } from '../i18n';
import { ApiError } from '../lib/errors';
import {
  attemptPuzzle,
  getDailyPuzzle,
  getNextPuzzle,
  getPuzzle,
  getPuzzleProfile,
  type DailyPuzzle,
} from '../lib/puzzlesApi';
import { loadErrorText } from './useDaily';
import { useNotify } from './useNotify';
import { usePlayer } from './usePlayer';
import { usePuzzleBoard } from './usePuzzleBoard';

/** A phase of the Puzzles page. */
export type PuzzlePhase = 'loading' | 'playing' | 'sending' | 'result' | 'error';

/**
 * A refusal of the puzzle routes in words: no puzzle left (404 on the next puzzle), the network, a stale run
 * puzzle (409), a player needed (401), or the generic load texts.
 */
export function puzzleErrorText(e: unknown, notFound = tr('puzzles.errors.noneLeft')): string {
  if (e instanceof ApiError) {
    if (e.code === 'network') return tr('puzzles.errors.network');
    if (e.code === 'conflict' || e.code === 'stale-version') return tr('puzzles.errors.stale');
    if (e.code === 'unauthorized') return tr('puzzles.errors.signUp');
  }
  return loadErrorText(e, notFound);
}

export function usePuzzle() {
  const { announce } = useNotify();
  const player = usePlayer();
  const phase = ref<PuzzlePhase>('loading');
  const error = ref<string | null>(null);
  /** The theme asked for (null: any). */
  const theme = ref<PuzzleTheme | null>(null);
  /** The puzzle on the table is the puzzle of the day. */
  const isDaily = ref(false);
  const result = shallowRef<PuzzleAttemptResult | null>(null);
  const profile = shallowRef<PuzzleProfile | null>(null);
  /** The profile is being fetched (it may fail: the page works without it). */
  const profileLoading = ref(false);
  const daily = shallowRef<DailyPuzzle | null>(null);
  /** Why the puzzle of the day could not be fetched, or null. */
  const dailyError = ref<string | null>(null);
  let seq = 0;

  const board = usePuzzleBoard((moves) => void send(moves));

  async function show(fetchPuzzle: () => Promise<Puzzle>, daily: boolean): Promise<void> {
    const mine = ++seq;
    phase.value = 'loading';
    error.value = null;
    result.value = null;
    board.load(null);
    try {
      const p = await fetchPuzzle();
      if (mine !== seq) return;
      isDaily.value = daily;
      board.load(p);
      phase.value = 'playing';
      announce(goalText(p));
    } catch (e) {
      if (mine !== seq) return;
      phase.value = 'error';
      error.value = puzzleErrorText(e);
    }
  }

  /** The next puzzle (of the chosen theme). */
  function next(): Promise<void> {
    const th = theme.value;
    return show(() => getNextPuzzle(th), false);
  }

  /** A puzzle by id (a shared link). */
  function open(id: string): Promise<void> {
    return show(() => getPuzzle(id), false);
  }

  /** The puzzle of the day on the table. */
  function openDaily(): Promise<void> {
    return show(async () => {
      const d = daily.value ?? (await getDailyPuzzle());
      daily.value = d;
      return d.puzzle;
    }, true);
  }

  /** Fetches the puzzle of the day (for its card), keeping the one already here. */
  async function loadDaily(): Promise<void> {
    dailyError.value = null;
    try {
      daily.value = await getDailyPuzzle();
    } catch (e) {
      dailyError.value = puzzleErrorText(e, tr('puzzles.errors.noDaily'));
    }
  }

  /** Fetches the player's puzzle profile (nothing for a guest). */
  async function loadProfile(): Promise<void> {
    if (!player.token.value) {
      profile.value = null;
      return;
    }
    profileLoading.value = true;
    try {
      profile.value = await getPuzzleProfile();
    } catch {
      profile.value = null; // the page works without it
    } finally {
      profileLoading.value = false;
    }
  }

  /** Sends the complete answer; a guest is asked to sign up first (the answer is kept and sent after). */
  async function send(moves: readonly Move[]): Promise<void> {
    const p = board.puzzle.value;
    if (!p || phase.value !== 'playing') return;
    if (!player.token.value) {
      phase.value = 'sending';
      player.requirePlayer(() => void sendAs(p, moves));
      return;
    }
    await sendAs(p, moves);
  }

  async function sendAs(p: Puzzle, moves: readonly Move[]): Promise<void> {
    const mine = seq;
    phase.value = 'sending';
    error.value = null;
    try {
      const r = await attemptPuzzle(p.id, moves);
      if (mine !== seq) return;
      result.value = r;
      phase.value = 'result';
      announce(resultText(r));
      board.showSolution(r.solution);
      void loadProfile();
    } catch (e) {
      if (mine !== seq) return;
      error.value = puzzleErrorText(e, tr('puzzles.errors.gone'));
      phase.value = 'playing';
      board.load(p); // the answer was not taken: the attempt starts over
    }
  }

  /** Starts the attempt over when a guest's sign-up, asked for to send the answer, is given up. */
  function cancelSend(): void {
    if (phase.value === 'sending' && board.puzzle.value) {
      phase.value = 'playing';
      board.load(board.puzzle.value);
    }
  }
  watch(player.dialog, (d) => {
    if (d === null && !player.token.value) cancelSend();
  });

  /** Chooses a theme (null: any) and fetches a puzzle of it. */
  function chooseTheme(t: PuzzleTheme | null): Promise<void> {
    theme.value = t;
    return next();
  }

  return {
    phase,
    error,
    theme,
    isDaily,
    result,
    profile,
    profileLoading,
    daily,
    dailyError,
    board,
    next,
    open,
    openDaily,
    loadDaily,
    loadProfile,
    chooseTheme,
  };
}

/** The goal of `p` in words ("Find the only move that keeps the deal winnable."). */
export function goalText(p: Pick<Puzzle, 'goal'>): string {
  return p.goal.type === 'only-move'
    ? tr('puzzles.goal.onlyMove')
    : tr('puzzles.goal.clear', { n: p.goal.moves }, p.goal.moves);
}

/** The verdict in words, with the rating change ("Correct! Your puzzle rating: 1500 → 1512."). */
export function resultText(r: PuzzleAttemptResult): string {
  const verdict = r.correct ? tr('puzzles.result.correct') : tr('puzzles.result.wrong');
  const rating = r.rated
    ? tr('puzzles.result.rating', { before: r.rating.before, after: r.rating.after })
    : tr('puzzles.result.unrated');
  return `${verdict} ${rating}`;
}
