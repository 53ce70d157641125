/**
 * Replays: rebuilds every position of a finished game from its deal, options and logged steps with the rules
 * package (the same `playerView` the server sends), and the pacing of automatic playback. Pure.
 */
import {
  applyAction,
  newGame,
  parseDeal,
  playerView,
  type GameAction,
  type GameOptions,
  type GameState,
  type Move,
  type PlayerView,
} from '@klondike/rules';
import { resolveOptions, type PresetName } from '@klondike/rules';
import { describeMove } from './format';
import { tr } from '../i18n';

/** One logged step (the protocol's ReplayStep). */
export interface ReplayStep {
  readonly type: 'move' | 'undo' | 'resign';
  readonly move?: Move;
  readonly atMs: number;
}

/** The position after a step (frame 0: the deal, before any step). */
export interface ReplayFrame {
  readonly view: PlayerView;
  /** The step that led here (null for frame 0). */
  readonly step: ReplayStep | null;
  readonly atMs: number;
  /** What the step did, in words ("Moved 7 of hearts to pile 3."). */
  readonly caption: string;
}

export type ReplayBuild =
  | { readonly ok: true; readonly frames: readonly ReplayFrame[] }
  | { readonly ok: false; readonly error: string; readonly frames: readonly ReplayFrame[] };

function actionOf(step: ReplayStep): GameAction | null {
  if (step.type === 'move') return step.move ? { type: 'move', move: step.move } : null;
  return { type: step.type };
}

/**
 * Every position of a game: frame 0 is the deal, frame i the position after step i. Stops at the first step
 * that does not apply (returning the frames so far and an error).
 */
export function buildReplay(deal: string, options: GameOptions, steps: readonly ReplayStep[]): ReplayBuild {
  const parsed = parseDeal(deal);
  if (!parsed.ok) return { ok: false, error: tr('replay.unreadable'), frames: [] };
  let state: GameState = newGame(parsed.value, options);
  let prev = playerView(state, 0);
  const frames: ReplayFrame[] = [{ view: prev, step: null, atMs: 0, caption: tr('replay.deal') }];
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i] as ReplayStep;
    const action = actionOf(step);
    const next = action ? applyAction(state, action) : null;
    if (!next || !next.ok) return { ok: false, error: tr('replay.badStep', { n: i + 1 }), frames };
    state = next.value;
    const view = playerView(state, step.atMs);
    const caption =
      step.type === 'undo'
        ? tr('replay.undid')
        : step.type === 'resign'
          ? tr('replay.resigned')
          : describeMove(step.move as Move, prev, view);
    frames.push({ view, step, atMs: step.atMs, caption });
    prev = view;
  }
  return { ok: true, frames };
}

/** Clamps a frame index into `[0, count - 1]`. */
export function clampFrame(i: number, count: number): number {
  return Math.min(Math.max(0, Math.round(i)), Math.max(0, count - 1));
}

/** Playback speeds offered. */
export const REPLAY_SPEEDS = [1, 2, 4, 8] as const;

/**
 * How long playback waits on frame `i` before showing frame `i + 1`: the real gap between the two steps divided
 * by `speed`, kept between `minMs` and `maxMs` (long thinking pauses are shortened, bursts slowed down). `null`
 * on the last frame.
 */
export function stepDelay(
  frames: readonly Pick<ReplayFrame, 'atMs'>[],
  i: number,
  speed: number,
  minMs = 160,
  maxMs = 1400,
): number | null {
  if (i < 0 || i >= frames.length - 1) return null;
  const gap = Math.max(0, (frames[i + 1] as ReplayFrame).atMs - (frames[i] as ReplayFrame).atMs);
  return Math.round(Math.min(maxMs, Math.max(minMs, gap / Math.max(0.25, speed))));
}

/** Pace of a solver's line played back: one move every 800 ms at speed 1. */
export const SOLUTION_STEP_MS = 800;

/**
 * A closed daily's winning line (the daily reveal: deal, par, line) as a replay to watch on the table, paced
 * evenly (`SOLUTION_STEP_MS`), under the rules of its preset.
 */
export function solutionSteps(line: readonly Move[]): ReplayStep[] {
  return line.map((move, i) => ({ type: 'move', move, atMs: (i + 1) * SOLUTION_STEP_MS }));
}

/** The options a daily of `preset` is played under (for replaying its solver's line). */
export function solutionOptions(preset: PresetName): GameOptions {
  return resolveOptions(preset);
}

/**
 * The frame of each move that stands at the end of a game (an undone move does not): `result[k - 1]` is the
 * frame index (frame i follows step i − 1) of the move that put the k-th move of the played line in place —
 * the line a review's plies count (docs/review.md). A resign ends the line.
 */
export function standingMoveFrames(steps: readonly Pick<ReplayStep, 'type'>[]): number[] {
  const stack: number[] = [];
  for (let i = 0; i < steps.length; i++) {
    const type = (steps[i] as Pick<ReplayStep, 'type'>).type;
    if (type === 'resign') break;
    if (type === 'move') stack.push(i + 1);
    else stack.pop();
  }
  return stack;
}

/**
 * A review's winning continuation as steps to replay: the played line's first `ply` standing moves (as they were
 * played, same times), then the solver's `line` from there, paced evenly (`SOLUTION_STEP_MS`).
 */
export function continuationSteps(
  steps: readonly ReplayStep[],
  ply: number,
  line: readonly Move[],
): ReplayStep[] {
  const standing = standingMoveFrames(steps)
    .slice(0, ply)
    .map((frame) => steps[frame - 1] as ReplayStep);
  const from = standing.length > 0 ? (standing[standing.length - 1] as ReplayStep).atMs : 0;
  return [
    ...standing,
    ...line.map((move, i): ReplayStep => ({ type: 'move', move, atMs: from + (i + 1) * SOLUTION_STEP_MS })),
  ];
}
