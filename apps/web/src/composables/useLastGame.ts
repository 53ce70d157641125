/**
 * The game last shown on the table in this tab, so that the "Play" link of every page leads back to it
 * (kept in sessionStorage: a reload of another page still knows it).
 */
import { ref, watch, type Ref } from 'vue';

const KEY = 'klondike.lastGame';

function read(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

const lastGame = ref<string | null>(typeof sessionStorage === 'undefined' ? null : read());
watch(lastGame, (id) => {
  try {
    if (id) sessionStorage.setItem(KEY, id);
    else sessionStorage.removeItem(KEY);
  } catch {
    /* private mode */
  }
});

/** The id of the game last shown on the table, or null. */
export function useLastGame(): Ref<string | null> {
  return lastGame;
}
