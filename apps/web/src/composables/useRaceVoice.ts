/**
 * What a race says through the live region for a player who cannot see it (RacePage): the countdown's
 * seconds, the opponents' progress at the player's chosen rate (`klondike.raceVoice`: seconds, 0 = never;
 * default 30) and at once when asked (the `O` key), an opponent finishing, and the player's place at the end.
 * Texts are the `a11y` message section, loaded here.
 */
import type { Race } from '@klondike/protocol';
import { computed, onScopeDispose, ref, watch, type Ref } from 'vue';
import { loadMessageSection, tr } from '../i18n';
import { ordinal, type Racer } from '../lib/race';
import { useNotify } from './useNotify';

/** The rates offered, seconds between two progress announcements (0 = never). */
export const RACE_VOICE_RATES = [0, 10, 30, 60] as const;
const RATE_KEY = 'klondike.raceVoice';

function storedRate(): number {
  try {
    const n = Number(localStorage.getItem(RATE_KEY) ?? 30);
    return (RACE_VOICE_RATES as readonly number[]).includes(n) ? n : 30;
  } catch {
    return 30;
  }
}

/** The opponents' progress in one sentence ("Bob: 12 cards home, 40 moves. Carol has finished"). */
export function progressSentence(others: readonly Racer[]): string {
  return others
    .map((r) =>
      r.progress && r.progress.status !== 'playing'
        ? tr('a11y.race.finished', { name: r.name })
        : tr('a11y.race.progress', {
            name: r.name,
            cards: r.progress?.foundationCards ?? 0,
            moves: r.progress?.moves ?? 0,
          }),
    )
    .join('. ');
}

/**
 * Speaks the race in `race` (the room), with `msLeft` the countdown's ms to the start (null: none) and
 * `others` the other racers; returns the rate (a ref kept in localStorage) and `sayProgress` (the `O` key).
 */
export function useRaceVoice(race: Ref<Race | null>, msLeft: Ref<number | null>, others: Ref<Racer[]>) {
  const { announce } = useNotify();
  const rate = ref(storedRate());
  void loadMessageSection('a11y').catch(() => undefined);
  const status = computed(() => race.value?.status ?? null);

  const second = computed(() =>
    status.value === 'countdown' && msLeft.value !== null && msLeft.value > 0
      ? Math.ceil(msLeft.value / 1000)
      : null,
  );
  watch(second, (n) => {
    if (n !== null) announce(tr('a11y.race.countdown', { n }));
  });

  function sayProgress(): void {
    if (others.value.length > 0) announce(progressSentence(others.value));
  }
  let timer: ReturnType<typeof setInterval> | undefined;
  watch(
    [status, rate],
    ([s, r]) => {
      clearInterval(timer);
      if (s === 'running' && r > 0) timer = setInterval(sayProgress, r * 1000);
    },
    { immediate: true },
  );
  watch(rate, (r) => {
    try {
      localStorage.setItem(RATE_KEY, String(r));
    } catch {
      /* private mode */
    }
  });

  // An opponent who finishes is said at once.
  watch(
    () => others.value.filter((r) => r.progress && r.progress.status !== 'playing').map((r) => r.playerId),
    (done, before) => {
      const fresh = others.value.filter((r) => done.includes(r.playerId) && !before?.includes(r.playerId));
      if (before && fresh.length > 0 && status.value === 'running')
        announce(fresh.map((r) => tr('a11y.race.finished', { name: r.name })).join('. '));
    },
  );

  // The player's place, once the race is over.
  const place = computed(() => {
    const r = race.value;
    return r && r.status === 'finished'
      ? (r.racers.find((x) => x.playerId === r.you)?.placement ?? null)
      : null;
  });
  watch(place, (p) => {
    if (p !== null) setTimeout(() => announce(tr('a11y.race.place', { place: ordinal(p) })), 1200);
  });

  onScopeDispose(() => clearInterval(timer));
  return { rate, sayProgress };
}
