/**
 * When the app may reload itself for a new build: never while a page holds a hold (a ranked game or a race
 * being played). Pages take a hold with `holdUpdates(reason)` and release it with the function it returns;
 * `updateSafe` is true when no hold is taken. Read by the update prompt (lib/pwa.ts, UpdatePrompt.vue).
 */
import { computed, onScopeDispose, reactive, ref, watch } from 'vue';

/** A new build is installed and waiting for the player's go-ahead (set by lib/pwa.ts). */
export const updateReady = ref(false);

const holds = reactive(new Set<symbol>());

/** True when no page holds reloads off (no ranked game or race under way). */
export const updateSafe = computed(() => holds.size === 0);

/** Holds reloads off until the returned function is called (idempotent). `reason` names the hold in devtools. */
export function holdUpdates(reason: string): () => void {
  const key = Symbol(reason);
  holds.add(key);
  return () => void holds.delete(key);
}

/** Holds reloads off while `on()` is true, for the life of the calling component (its effect scope). */
export function holdUpdatesWhile(on: () => boolean, reason: string): void {
  let release: (() => void) | null = null;
  const set = (held: boolean) => {
    release?.();
    release = held ? holdUpdates(reason) : null;
  };
  watch(on, set, { immediate: true });
  onScopeDispose(() => set(false));
}
