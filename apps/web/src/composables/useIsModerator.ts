/**
 * Whether the signed-in player is a moderator, as far as this browser knows. The API has no "am I a
 * moderator" field and the nav must not ask the moderators' routes on every page, so the moderators' pages
 * (useModeration.ts) remember the player whose /mod answered (by player id, localStorage `klondike.moderator`)
 * and forget them on a 403; the nav shows the moderation link to that player only. Showing it is a
 * convenience: the server refuses the routes to anyone else whatever this says.
 */
import { computed, ref } from 'vue';
import { usePlayer } from './usePlayer';

const MODERATOR_KEY = 'klondike.moderator';

function readModerator(): string | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage.getItem(MODERATOR_KEY);
  } catch {
    return null;
  }
}

/** The player id whose /mod answered last on this browser (null: none, or refused since). */
export const knownModerator = ref<string | null>(readModerator());

/** Remembers `id` as the moderator of this browser (null: forgets). */
export function rememberModerator(id: string | null): void {
  knownModerator.value = id;
  try {
    if (id) localStorage.setItem(MODERATOR_KEY, id);
    else localStorage.removeItem(MODERATOR_KEY);
  } catch {
    /* private mode: remembered for this tab */
  }
}

/** Whether the signed-in player was answered as a moderator on this browser (the nav's moderation link). */
export function useIsModerator() {
  const player = usePlayer();
  return computed(() => !!player.me.value && knownModerator.value === player.me.value.id);
}
