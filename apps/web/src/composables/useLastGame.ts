/**
 * The game last shown on the table in this browser: the "Play" link of every page leads back to it, and `/`
 * picks it up again while it is unfinished (kept in localStorage, so closing the tab loses nothing). A
 * signed-in player gets their game back on any device: `/` asks the server for it (docs/features.md "Resuming a game").
 */
import type { GameResponse } from '@klondike/protocol';
import { ref, watch, type Ref } from 'vue';
import { getCurrentGame, getGame } from '../lib/api';
import { usePlayer } from './usePlayer';

const KEY = 'klondike.lastGame';

function read(): string | null {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

const lastGame = ref<string | null>(typeof localStorage === 'undefined' ? null : read());
watch(lastGame, (id) => {
  try {
    if (id) localStorage.setItem(KEY, id);
    else localStorage.removeItem(KEY);
  } catch {
    /* private mode */
  }
});

/** The id of the game last shown on the table, or null. */
export function useLastGame(): Ref<string | null> {
  return lastGame;
}

/** Game `id` while it can be resumed on `/` (status `playing`, not a race game), else null (also when gone). */
async function resumable(id: string | null | undefined): Promise<GameResponse | null> {
  if (!id) return null;
  try {
    const g = await getGame(id);
    return g.kind === 'race' || g.view.status !== 'playing' ? null : g;
  } catch {
    return null; // gone, or not reachable now: a new deal is the better answer
  }
}

/** A signed-in player's current game on the server (GET /api/me/games/current), or null. */
async function serverGame(): Promise<GameResponse | null> {
  try {
    return await resumable((await getCurrentGame())?.id);
  } catch {
    return null; // signed out meanwhile, or the server is unreachable
  }
}

/**
 * The game `/` resumes, or null (then a new one is dealt). Signed in (once a sign-in link the page was
 * opened with is settled): the player's unfinished game they acted on last on any device — every game this
 * browser deals while signed in is theirs, so it is at least as recent as this browser's own; without one,
 * or signed out, this browser's last game while it is unfinished. A race game stays with its race page.
 */
export async function gameToResume(): Promise<GameResponse | null> {
  const player = usePlayer();
  await player.settled();
  return (player.signedIn.value ? await serverGame() : null) ?? (await resumable(lastGame.value));
}
