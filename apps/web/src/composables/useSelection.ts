/**
 * What the player has picked up with a click or the keyboard: a pile, and for clicks the card index from which
 * the run starts (keyboard selections leave it out; the target decides the count). App-wide.
 */
import type { PileId } from '@klondike/rules';
import { ref } from 'vue';

export interface PickedUp {
  readonly pile: PileId;
  /** Index in the pile's face-up cards where the picked-up run starts; undefined = "whatever fits". */
  readonly index?: number;
}

const selection = ref<PickedUp | null>(null);

export function useSelection() {
  return selection;
}
