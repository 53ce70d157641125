/**
 * Which game is a ranked daily attempt, and of which daily. Remembered per game id in localStorage when the
 * attempt starts; a game opened from elsewhere (a reload on another device) is recognised by asking
 * GET /api/daily for the player's own result (`you.gameId`).
 */
import type { PlayerView } from '@klondike/rules';
import { ref, watch, type Ref } from 'vue';
import { getDailyToday } from '../lib/api';
import type { DailyPreset } from '../lib/route';

export interface RankedInfo {
  readonly gameId: string;
  readonly date: string;
  readonly preset: DailyPreset;
  readonly par: number | null;
}

const KEY = 'klondike.ranked';

function readAll(): RankedInfo[] {
  try {
    const raw = JSON.parse(localStorage.getItem(KEY) ?? '[]') as unknown;
    return Array.isArray(raw) ? (raw as RankedInfo[]) : [];
  } catch {
    return [];
  }
}

/** Remembers that `info.gameId` is a ranked attempt (keeps the last 20). */
export function rememberRanked(info: RankedInfo): void {
  const all = [info, ...readAll().filter((r) => r.gameId !== info.gameId)].slice(0, 20);
  try {
    localStorage.setItem(KEY, JSON.stringify(all));
  } catch {
    /* private mode */
  }
}

/** Whether a view's rules are the ranked ones (undo and hints off). */
export function hasRankedRules(view: PlayerView | null): boolean {
  return !!view && !view.options.undo && !view.options.hints;
}

/** The ranked daily the current game belongs to, or null. */
export function useRanked(gameId: Ref<string | null>, view: Ref<PlayerView | null>, signedIn: Ref<boolean>) {
  const info = ref<RankedInfo | null>(null);
  let asked: string | null = null;

  watch(
    [gameId, () => hasRankedRules(view.value), signedIn],
    ([id, rankedRules, player]) => {
      if (!id) {
        info.value = null;
        return;
      }
      const known = readAll().find((r) => r.gameId === id) ?? null;
      info.value = known;
      if (known || !rankedRules || !player || asked === id) return;
      asked = id;
      getDailyToday()
        .then((t) => {
          const c = t.challenges.find((ch) => ch.you?.gameId === id);
          if (!c || gameId.value !== id) return;
          const found = { gameId: id, date: c.date, preset: c.preset, par: c.par };
          rememberRanked(found);
          info.value = found;
        })
        .catch(() => {
          /* not known: shown as a plain game */
        });
    },
    { immediate: true },
  );

  return info;
}
