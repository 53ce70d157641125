/**
 * Which game is a ranked daily attempt, and of which daily: the server says so (`kind` of the game),
 * remembered per game id in localStorage when the attempt starts or once asked.
 */
import type { PlayerView } from '@klondike/rules';
import { ref, watch, type Ref } from 'vue';
import { getGame } from '../lib/api';
import { getDailyToday } from '../lib/dailyApi';
import type { DailyPreset } from '@klondike/protocol';

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

/**
 * The ranked daily the current game belongs to, or null. Whether a game is a ranked attempt is the
 * server's word (`kind: 'daily-ranked'` and its `daily` in GET /api/games/:id), never a guess from its
 * options; the par comes from the day's challenges. Answers are remembered per game id (localStorage), so
 * a reload shows the badge at once. The `view` argument re-checks a game that was not known yet once its
 * first view arrives.
 */
export function useRanked(gameId: Ref<string | null>, view: Ref<PlayerView | null>, signedIn: Ref<boolean>) {
  const info = ref<RankedInfo | null>(null);
  let asked: string | null = null;

  async function ask(id: string): Promise<RankedInfo | null> {
    const game = await getGame(id);
    if (game.kind !== 'daily-ranked' || game.daily === null) return null;
    const { date, preset } = game.daily;
    const today = await getDailyToday().catch(() => null);
    const par = today?.challenges.find((c) => c.date === date && c.preset === preset)?.par ?? null;
    return { gameId: id, date, preset, par };
  }

  watch(
    [gameId, () => view.value !== null, signedIn],
    ([id, loaded, player]) => {
      if (!id) {
        info.value = null;
        return;
      }
      const known = readAll().find((r) => r.gameId === id) ?? null;
      info.value = known;
      // Only a signed-in player has ranked attempts (they are owned games).
      if (known || !loaded || !player || asked === id) return;
      asked = id;
      ask(id)
        .then((found) => {
          if (!found || gameId.value !== id) return;
          rememberRanked(found);
          info.value = found;
        })
        .catch(() => {
          /* not reachable now: shown as a plain game */
        });
    },
    { immediate: true },
  );

  return info;
}
