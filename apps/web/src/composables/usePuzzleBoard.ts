/**
 * One puzzle on the card table (lib/puzzle.ts): the attempt being played (moves checked locally by the rules
 * package), then the solution played out, step by step or on its own. `table` feeds GameTable: it takes moves
 * while the attempt is open and refuses them once the answer is complete or the solution is shown. When the
 * answer is complete `onAnswer` is called with its moves (the page's composable sends them).
 */
import type { Puzzle } from '@klondike/protocol';
import type { Move, PlayerView } from '@klondike/rules';
import { computed, onScopeDispose, ref, shallowRef } from 'vue';
import { tr } from '../i18n';
import { describeMove } from '../lib/format';
import { playMove, solutionFrames, startPlay, type PuzzlePlay, type SolutionFrame } from '../lib/puzzle';
import type { Outcome, TableSource } from './useGame';
import { useNotify } from './useNotify';

/** Pause between two moves of a solution played out, ms. */
export const SOLUTION_STEP_MS = 700;

export function usePuzzleBoard(onAnswer: (moves: readonly Move[]) => void) {
  const { announce } = useNotify();
  const puzzle = shallowRef<Puzzle | null>(null);
  const play = shallowRef<PuzzlePlay | null>(null);
  /** The solution's positions once shown (null while the attempt is open). */
  const frames = shallowRef<readonly SolutionFrame[] | null>(null);
  const frameIndex = ref(0);
  const playing = ref(false);
  const dealSeq = ref(0);
  const version = ref(0);
  let timer: ReturnType<typeof setTimeout> | undefined;

  /** Shows `p` on the table, a fresh attempt. */
  function load(p: Puzzle | null): void {
    stopSolution();
    puzzle.value = p;
    play.value = p ? startPlay(p.view, p.goal) : null;
    frames.value = null;
    frameIndex.value = 0;
    dealSeq.value++;
    version.value++;
  }

  /** Starts the attempt over from the puzzle's position (before the answer is sent). */
  function restart(): void {
    const p = puzzle.value;
    if (!p || !play.value || play.value.done) return;
    play.value = startPlay(p.view, p.goal);
    version.value++;
    announce(tr('puzzles.play.restarted'));
  }

  function move(m: Move): Outcome {
    const pl = play.value;
    if (!pl || frames.value) return 'no-game';
    const r = playMove(pl, m);
    if (!r.ok) return r.why === 'done' ? 'busy' : 'illegal';
    play.value = r.play;
    version.value++;
    announce(describeMove(m, pl.view, r.play.view));
    if (r.play.done) onAnswer(r.play.moves);
    return 'sent';
  }

  /** Shows `solution` on the table from the puzzle's position, and plays it out. */
  function showSolution(solution: readonly Move[]): void {
    const p = puzzle.value;
    if (!p) return;
    frames.value = solutionFrames(p.view, p.goal, solution);
    frameIndex.value = 0;
    version.value++;
    playSolution();
  }

  function schedule(): void {
    clearTimeout(timer);
    const f = frames.value;
    if (!playing.value || !f) return;
    if (frameIndex.value >= f.length - 1) {
      playing.value = false;
      return;
    }
    timer = setTimeout(() => {
      frameIndex.value++;
      version.value++;
      schedule();
    }, SOLUTION_STEP_MS);
  }

  /** Plays the solution from its start. */
  function playSolution(): void {
    if (!frames.value) return;
    frameIndex.value = 0;
    version.value++;
    playing.value = true;
    schedule();
  }

  /** Steps the solution by `delta` moves (stops playback). */
  function stepSolution(delta: number): void {
    const f = frames.value;
    if (!f) return;
    stopSolution();
    frameIndex.value = Math.min(Math.max(0, frameIndex.value + delta), f.length - 1);
    version.value++;
    const caption = f[frameIndex.value]?.caption;
    if (caption) announce(caption);
  }

  function stopSolution(): void {
    playing.value = false;
    clearTimeout(timer);
  }
  onScopeDispose(stopSolution);

  const view = computed<PlayerView | null>(() => {
    const f = frames.value;
    if (f) return f[frameIndex.value]?.view ?? null;
    return play.value?.view ?? null;
  });

  const table: TableSource = {
    view,
    version: computed(() => version.value),
    busy: computed(() => false),
    dealSeq,
    move,
  };

  return {
    puzzle,
    play,
    frames,
    frameIndex,
    playing,
    view,
    table,
    load,
    restart,
    move,
    showSolution,
    playSolution,
    stepSolution,
    stopSolution,
    /** Moves played in the open attempt. */
    movesPlayed: computed(() => play.value?.moves.length ?? 0),
    /** The caption of the solution's position shown ("Moved 7 of hearts to pile 3."). */
    caption: computed(() => frames.value?.[frameIndex.value]?.caption ?? ''),
  };
}

/** A puzzle on the table (usePuzzleBoard). */
export type PuzzleBoard = ReturnType<typeof usePuzzleBoard>;
