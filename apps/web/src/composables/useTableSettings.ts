/**
 * The settings that act on a game being played (useSettings): sounds for what happens on the table, and the
 * auto-move to foundation (R15's safe moves, `safeViewAutoMove`). Used by the play page.
 */
import { foundationCount, safeViewAutoMove, type Move, type PlayerView } from '@klondike/rules';
import { onBeforeUnmount, watch } from 'vue';
import type { TableSource } from './useGame';
import { useSettings } from './useSettings';

/** The sound for the change from `prev` to `next`, or null (nothing happened, or another game). */
export function soundFor(
  prev: PlayerView | null,
  next: PlayerView | null,
): import('../lib/sounds').SoundKind | null {
  if (!prev || !next || next.moves < prev.moves) return null;
  if (next.status === 'won' && prev.status !== 'won') return 'win';
  if (foundationCount(next.foundations) > foundationCount(prev.foundations)) return 'foundation';
  if (next.stock.count !== prev.stock.count) return 'draw';
  if (next.moves > prev.moves) return 'move';
  return null;
}

const key = (m: Move | null) => (m ? JSON.stringify(m) : '');

/**
 * Plays the table's sounds and makes the safe foundation moves while the settings ask for them. After an
 * undo (`declineAutoMove`) the move the player just took back is not made again until another one is due.
 */
export function useTableSettings(game: TableSource): { declineAutoMove(): void } {
  const { settings, motionFactor } = useSettings();
  let declining = false;
  let declined = '';
  let timer: ReturnType<typeof setTimeout> | undefined;

  watch(game.view, (next, prev) => {
    if (settings.sounds) {
      const kind = soundFor(prev ?? null, next ?? null);
      if (kind) void import('../lib/sounds').then((s) => s.playSound(kind));
    }
    clearTimeout(timer);
    if (!settings.autoFoundation || !next) return;
    const move = safeViewAutoMove(next);
    if (declining) {
      declining = false;
      declined = key(move);
      return;
    }
    if (!move || key(move) === declined) return;
    declined = '';
    // A moment after the player's own move, so that both are seen.
    timer = setTimeout(
      () => {
        if (game.view.value === next) game.move(move);
      },
      120 + 160 * motionFactor.value,
    );
  });
  onBeforeUnmount(() => clearTimeout(timer));
  return {
    declineAutoMove() {
      declining = true;
      clearTimeout(timer);
    },
  };
}
