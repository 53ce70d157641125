/**
 * State of fair play on the player's side (docs/fair-play.md): sending a report, the signed-in player's own
 * standing with their one appeal, and the published figures. Components render what these hold; every
 * refusal is a sentence from `fairPlayErrorText` (409: already reported / already appealed; 429: too many).
 */
import type { ReportBody } from '@klondike/protocol';
import { computed, ref, shallowRef, watch } from 'vue';
import {
  getFairPlayStats,
  getMyFairPlay,
  reportPlayer,
  sendAppeal,
  type FairPlayStanding,
  type Report,
} from '../lib/fairPlayApi';
import { APPEAL_MAX, APPEAL_MIN, fairPlayErrorText } from '../lib/fairPlay';
import { useLoad } from './useDaily';
import { usePlayer } from './usePlayer';

/**
 * One report being written: `send` posts it once (a second call while one is on its way does nothing);
 * `error` is the refusal in words, `sent` the report the server kept.
 */
export function useReport() {
  const busy = ref(false);
  const error = ref<string | null>(null);
  const sent = shallowRef<Report | null>(null);
  async function send(body: ReportBody): Promise<boolean> {
    if (busy.value) return false;
    busy.value = true;
    error.value = null;
    try {
      sent.value = await reportPlayer(body);
      return true;
    } catch (e) {
      error.value = fairPlayErrorText(e, 'report');
      return false;
    } finally {
      busy.value = false;
    }
  }
  return { busy, error, sent, send };
}

/**
 * The signed-in player's standing (GET /api/me/fair-play), loaded while signed in and again when the player
 * changes, and their appeal: `appeal(text)` sends it (10–2000 characters) and shows the standing it made.
 */
export function useMyFairPlay() {
  const player = usePlayer();
  const standing = shallowRef<FairPlayStanding | null>(null);
  const loadError = ref<string | null>(null);
  const busy = ref(false);
  const error = ref<string | null>(null);

  async function load(): Promise<void> {
    loadError.value = null;
    if (!player.token.value) {
      standing.value = null;
      return;
    }
    try {
      standing.value = await getMyFairPlay();
    } catch (e) {
      loadError.value = fairPlayErrorText(e, 'appeal');
    }
  }
  watch(player.token, () => void load(), { immediate: true });

  /** The appeal text's problem before sending (too short or too long), or null. */
  function appealProblem(text: string): string | null {
    const n = text.trim().length;
    if (n < APPEAL_MIN) return 'short';
    if (n > APPEAL_MAX) return 'long';
    return null;
  }

  async function appeal(text: string): Promise<boolean> {
    if (busy.value || appealProblem(text)) return false;
    busy.value = true;
    error.value = null;
    try {
      const sent = await sendAppeal(text.trim());
      if (standing.value) standing.value = { ...standing.value, appeal: sent, canAppeal: false };
      return true;
    } catch (e) {
      error.value = fairPlayErrorText(e, 'appeal');
      // A second device may have appealed first: show the appeal it sent.
      await load();
      return false;
    } finally {
      busy.value = false;
    }
  }

  return {
    standing,
    loadError,
    busy,
    error,
    /** Marked now, or with an appeal to show. */
    shown: computed(() => !!standing.value && (standing.value.marked || standing.value.appeal !== null)),
    load,
    appeal,
    appealProblem,
  };
}

/** The published figures (GET /api/fair-play/stats, public). */
export function useFairPlayStats() {
  return useLoad(getFairPlayStats);
}
