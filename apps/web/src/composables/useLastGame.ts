/**
 * The game last shown on the table in this browser: the "Play" link of every page leads back to it, and `/`
 * picks it up again while it is unfinished (kept in localStorage, so closing the tab loses nothing).
 */
import { ref, watch, type Ref } from 'vue';

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
