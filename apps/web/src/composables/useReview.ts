/**
 * A finished game's review (GET /api/games/:id/review, docs/review.md), asked again while the server answers
 * `pending` (after the `retryAfterMs` it suggests), until it is done, refused, or the page is left.
 */
import { onScopeDispose, ref, shallowRef, watch, type Ref } from 'vue';
import { getReview, type GameReviewAnswer } from '../lib/api';
import { tr } from '../i18n';
import { loadErrorText } from './useDaily';

/** A done review. */
export type GameReview = Extract<GameReviewAnswer, { status: 'done' }>;

/** Longest wait between two asks, ms (the server suggests less). */
const MAX_RETRY_MS = 5_000;

/** Loads the review of `gameId` (null: nothing to load) and keeps asking while it is pending. */
export function useReview(gameId: Ref<string | null>) {
  const review = shallowRef<GameReview | null>(null);
  const error = ref<string | null>(null);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let seq = 0;

  async function ask(id: string, mine: number): Promise<void> {
    try {
      const answer = await getReview(id);
      if (mine !== seq) return;
      if (answer.status === 'done') {
        review.value = answer;
        return;
      }
      timer = setTimeout(
        () => void ask(id, mine),
        Math.min(MAX_RETRY_MS, Math.max(250, answer.retryAfterMs)),
      );
    } catch (e) {
      if (mine !== seq) return;
      error.value = loadErrorText(e, tr('review.unavailable'));
    }
  }

  function load(): void {
    clearTimeout(timer);
    seq++;
    review.value = null;
    error.value = null;
    const id = gameId.value;
    if (id !== null) void ask(id, seq);
  }

  watch(gameId, load, { immediate: true });
  onScopeDispose(() => {
    seq++;
    clearTimeout(timer);
  });
  return { review, error, reload: load };
}
