/**
 * A replay being watched: a game's log (GET /api/games/:id/replay), or a closed daily's winning line (GET the
 * daily's reveal), rebuilt into positions with the rules package, the frame shown, play/pause at a chosen speed, stepping and seeking. `table` feeds the card table
 * (read-only: it refuses moves).
 */
import type { PlayerView } from '@klondike/rules';
import { computed, onScopeDispose, ref, shallowRef, watch, type Ref } from 'vue';
import { getReplay } from '../lib/api';
import { getDailyReveal } from '../lib/dailyApi';
import {
  buildReplay,
  clampFrame,
  solutionOptions,
  solutionSteps,
  stepDelay,
  type ReplayBuild,
} from '../lib/replay';
import type { DailyPreset } from '../lib/route';
import { tr } from '../i18n';
import { loadErrorText } from './useDaily';
import type { TableSource } from './useGame';

/** A replay as the server sends it (GET /api/games/:id/replay). */
export type Replay = Awaited<ReturnType<typeof getReplay>>;

/**
 * What to replay: a finished game, the solver's winning line of a closed daily, or steps already at hand (a
 * review's winning continuation), shown from frame `startAt`.
 */
export type ReplaySource =
  | { readonly gameId: string }
  | { readonly date: string; readonly preset: DailyPreset }
  | { readonly given: Replay; readonly startAt: number };

/** A closed daily's solution as a replay (no player; its steps paced evenly). */
async function loadSolution(date: string, preset: DailyPreset): Promise<Replay> {
  const r = await getDailyReveal(date, preset);
  return {
    id: `daily-${date}-${preset}`,
    deal: r.deal,
    options: solutionOptions(preset),
    preset,
    player: null,
    steps: solutionSteps(r.line),
  };
}

export function useReplay(source: Ref<ReplaySource>) {
  const replay = shallowRef<Replay | null>(null);
  const built = shallowRef<ReplayBuild | null>(null);
  const error = ref<string | null>(null);
  const index = ref(0);
  const playing = ref(false);
  const speed = ref<number>(2);
  const dealSeq = ref(0);
  let timer: ReturnType<typeof setTimeout> | undefined;

  const frames = computed(() => built.value?.frames ?? []);
  const count = computed(() => frames.value.length);
  const frame = computed(() => frames.value[index.value] ?? null);
  const atEnd = computed(() => index.value >= count.value - 1);

  async function load(): Promise<void> {
    stop();
    replay.value = null;
    built.value = null;
    error.value = null;
    index.value = 0;
    try {
      const src = source.value;
      const r =
        'given' in src
          ? src.given
          : 'gameId' in src
            ? await getReplay(src.gameId)
            : await loadSolution(src.date, src.preset);
      replay.value = r;
      const b = buildReplay(r.deal, r.options, r.steps);
      built.value = b;
      if (!b.ok) error.value = b.error;
      if ('given' in src) index.value = clampFrame(src.startAt, b.frames.length);
      dealSeq.value++;
    } catch (e) {
      error.value = loadErrorText(
        e,
        'gameId' in source.value ? tr('load.noReplay') : tr('load.noDailyThatDay'),
      );
    }
  }

  function schedule(): void {
    clearTimeout(timer);
    if (!playing.value) return;
    const delay = stepDelay(frames.value, index.value, speed.value);
    if (delay === null) {
      playing.value = false;
      return;
    }
    timer = setTimeout(() => {
      index.value = clampFrame(index.value + 1, count.value);
      schedule();
    }, delay);
  }

  function play(): void {
    if (count.value < 2) return;
    if (atEnd.value) index.value = 0;
    playing.value = true;
    schedule();
  }
  function stop(): void {
    playing.value = false;
    clearTimeout(timer);
  }
  function toggle(): void {
    if (playing.value) stop();
    else play();
  }
  function seek(i: number): void {
    index.value = clampFrame(i, count.value);
    if (playing.value) schedule();
  }
  function step(delta: number): void {
    stop();
    seek(index.value + delta);
  }

  watch(speed, () => playing.value && schedule());
  watch(source, () => void load(), { immediate: true, deep: true });
  onScopeDispose(() => clearTimeout(timer));

  const table: TableSource = {
    view: computed<PlayerView | null>(() => frame.value?.view ?? null),
    version: computed(() => index.value),
    busy: computed(() => false),
    dealSeq,
    move: () => 'illegal',
  };

  return {
    replay,
    built,
    error,
    frames,
    frame,
    index,
    count,
    playing,
    speed,
    atEnd,
    table,
    play,
    stop,
    toggle,
    seek,
    step,
    reload: load,
  };
}
