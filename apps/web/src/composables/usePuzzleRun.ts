/**
 * The timed run's state (docs/puzzles.md "Timed run"): start a run, answer its puzzles one after another on the
 * table, the clock counting down, the final score, and the daily and all-time boards. Components render it.
 *
 * The server keeps the clock: each answer of the server carries `remainingMs`, and the countdown shown runs
 * from that figure on this page's monotonic clock (never from the device's wall clock, which may be wrong), so
 * a wrong answer's penalty shows as soon as the server's answer arrives. At 0 the run is over here too (the
 * server refuses later answers).
 *
 * Phases: `idle` (not started), `starting`, `running` (a puzzle on the table), `sending` (an answer on its
 * way), `over` (the final score), `error` (the run cannot go on: `error` says why, e.g. a stale puzzle, 409).
 */
import type { PuzzleRun, PuzzleRunBoard } from '@klondike/protocol';
import type { Move } from '@klondike/rules';
import { computed, onScopeDispose, ref, shallowRef } from 'vue';
import { tr } from '../i18n';
import { answerPuzzleRun, getPuzzleRunBoard, startPuzzleRun } from '../lib/puzzlesApi';
import { puzzleErrorText } from './usePuzzle';
import { useNotify } from './useNotify';
import { usePlayer } from './usePlayer';
import { usePuzzleBoard } from './usePuzzleBoard';

/** A phase of the timed run. */
export type PuzzleRunPhase = 'idle' | 'starting' | 'running' | 'sending' | 'over' | 'error';

/** How often the countdown is redrawn, ms. */
const TICK_MS = 200;

/** `ms` as m:ss, whole seconds rounded up (a run shows 3:00 at its start, 0:00 only once over). */
export function formatRunClock(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

export function usePuzzleRun(now: () => number = () => performance.now()) {
  const { announce } = useNotify();
  const player = usePlayer();
  const phase = ref<PuzzleRunPhase>('idle');
  const error = ref<string | null>(null);
  const run = shallowRef<PuzzleRun | null>(null);
  /** The last answer: right or wrong (null before the first). */
  const last = shallowRef<{ correct: boolean } | null>(null);
  const boards = shallowRef<{ day: PuzzleRunBoard | null; all: PuzzleRunBoard | null }>({
    day: null,
    all: null,
  });
  const boardError = ref<string | null>(null);
  /** When the run ends on this page's clock (`now()`), from the server's last `remainingMs`. */
  let deadline = 0;
  const clock = ref(now());
  let ticker: ReturnType<typeof setInterval> | undefined;

  const board = usePuzzleBoard((moves) => void answer(moves));

  /** ms left, by the server's last word and the time since (0 once over). */
  const remainingMs = computed(() =>
    phase.value === 'running' || phase.value === 'sending' ? Math.max(0, deadline - clock.value) : 0,
  );

  function tick(): void {
    clock.value = now();
    if ((phase.value === 'running' || phase.value === 'sending') && deadline - clock.value <= 0) finish();
  }

  function stopTicking(): void {
    clearInterval(ticker);
    ticker = undefined;
  }
  onScopeDispose(stopTicking);

  /** Takes the server's run: its clock, its puzzle, or its end. */
  function take(r: PuzzleRun): void {
    run.value = r;
    deadline = now() + r.remainingMs;
    clock.value = now();
    if (r.finished || r.puzzle === null || r.remainingMs <= 0) {
      finish();
      return;
    }
    if (board.puzzle.value?.id !== r.puzzle.id) board.load(r.puzzle);
    phase.value = 'running';
    ticker ??= setInterval(tick, TICK_MS);
  }

  /** The run is over: the final score is announced and the boards fetched. */
  function finish(): void {
    if (phase.value === 'over') return;
    stopTicking();
    board.load(null);
    phase.value = 'over';
    announce(tr('puzzles.run.over', { n: run.value?.score ?? 0 }, run.value?.score ?? 0));
    void loadBoards();
  }

  /** Starts a run (a guest signs up first). */
  function start(): void {
    player.requirePlayer(() => void startAs());
  }

  async function startAs(): Promise<void> {
    phase.value = 'starting';
    error.value = null;
    last.value = null;
    try {
      const started = await startPuzzleRun();
      announce(tr('puzzles.run.started'));
      take(started);
    } catch (e) {
      phase.value = 'error';
      error.value = puzzleErrorText(e);
    }
  }

  async function answer(moves: readonly Move[]): Promise<void> {
    const r = run.value;
    const p = board.puzzle.value;
    if (!r || !p || phase.value !== 'running') return;
    phase.value = 'sending';
    try {
      const a = await answerPuzzleRun(r.id, p.id, moves);
      if (phase.value !== 'sending') return; // over meanwhile
      last.value = { correct: a.correct };
      announce(a.correct ? tr('puzzles.run.right') : tr('puzzles.run.wrong'));
      take(a.run);
    } catch (e) {
      if (phase.value !== 'sending') return;
      stopTicking();
      board.load(null);
      phase.value = 'error';
      error.value = puzzleErrorText(e, tr('puzzles.errors.gone'));
      announce(error.value);
    }
  }

  /** Fetches the daily and all-time boards. */
  async function loadBoards(): Promise<void> {
    boardError.value = null;
    try {
      const [day, all] = await Promise.all([getPuzzleRunBoard('day'), getPuzzleRunBoard('all')]);
      boards.value = { day, all };
    } catch (e) {
      boardError.value = puzzleErrorText(e, tr('puzzles.errors.noBoard'));
    }
  }

  return { phase, error, run, last, boards, boardError, remainingMs, board, start, loadBoards, tick };
}
