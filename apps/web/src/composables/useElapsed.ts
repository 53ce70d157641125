/**
 * The game clock shown in the top bar. The server keeps time (view.elapsedMs); the client re-anchors on every
 * confirmed state and ticks locally in between while the game is running.
 */
import { computed, onScopeDispose, ref, watch, type Ref } from 'vue';
import type { Confirmed } from './useGame';

/**
 * Whether the clock runs: a game in play whose clock has started — at the first move, or at once for a
 * ranked attempt (ranked rules: undo and hints off), whose clock the server starts when it is opened.
 */
export function clockRunning(c: Confirmed | null): boolean {
  if (!c) return false;
  const ranked = !c.view.options.undo && !c.view.options.hints;
  return c.view.status === 'playing' && (ranked || c.view.moves > 0 || c.view.elapsedMs > 0);
}

export function useElapsed(confirmed: Ref<Confirmed | null>) {
  const now = ref(performance.now());
  let anchorMs = 0;
  let anchorAt = performance.now();
  watch(
    confirmed,
    (c) => {
      anchorMs = c?.view.elapsedMs ?? 0;
      anchorAt = performance.now();
      now.value = anchorAt;
    },
    { immediate: true },
  );
  const timer = setInterval(() => {
    now.value = performance.now();
  }, 250);
  onScopeDispose(() => clearInterval(timer));
  return computed(() => anchorMs + (clockRunning(confirmed.value) ? Math.max(0, now.value - anchorAt) : 0));
}
