/**
 * Quick race (docs/ratings.md "Quick race"): enter a pairing pool, wait with the time waited counting, cancel,
 * and go to the race room once paired. The server's answer replaces the local state whole. It hears the
 * `paired` frame on the app's socket and also asks the server every POLL_MS while waiting (a socket may be
 * down, and asking lets any node pair the pool).
 */
import { computed, onBeforeUnmount, ref, type Ref } from 'vue';
import { useRouter } from 'vue-router';
import { serverText, tr } from '../i18n';
import { ApiError } from '../lib/api';
import { racePath } from '../lib/race';
import { type PairingStatus, enterPairing, getPairing, leavePairing } from '../lib/raceApi';
import { useSocket } from './useSocket';

/** How often a waiting client asks for its status, ms. */
const POLL_MS = 2000;

/** A pairing preset. */
export type QuickPreset = 'classic-draw1' | 'classic-draw3';

export interface QuickRace {
  /** The server's last answer (null before the first). */
  readonly status: Readonly<Ref<PairingStatus | null>>;
  /** Ms waited so far (counts up locally between answers). */
  readonly waitedMs: Readonly<Ref<number>>;
  readonly waiting: Readonly<Ref<boolean>>;
  readonly busy: Readonly<Ref<boolean>>;
  readonly error: Readonly<Ref<string | null>>;
  /** Enters `preset`'s pool. */
  start(preset: QuickPreset): Promise<void>;
  /** Leaves the pool. */
  cancel(): Promise<void>;
  /** Reads the status once (a page that opens while its player already waits picks the wait up). */
  refresh(): Promise<void>;
}

/** See the module comment. Stops polling and listening when the component unmounts. */
export function useQuickRace(): QuickRace {
  const router = useRouter();
  const socket = useSocket();
  const status = ref<PairingStatus | null>(null);
  const error = ref<string | null>(null);
  const busy = ref(false);
  const now = ref(Date.now());
  let answeredAt = Date.now();
  let poll: ReturnType<typeof setInterval> | undefined;
  let clock: ReturnType<typeof setInterval> | undefined;
  let gone = false;

  const waiting = computed(() => status.value?.status === 'waiting');
  const waitedMs = computed(() =>
    status.value?.status === 'waiting' ? status.value.waitedMs + Math.max(0, now.value - answeredAt) : 0,
  );

  function stopTimers(): void {
    if (poll) clearInterval(poll);
    if (clock) clearInterval(clock);
    poll = clock = undefined;
  }

  function apply(s: PairingStatus): void {
    if (gone) return;
    status.value = s;
    answeredAt = now.value = Date.now();
    if (s.status === 'paired') {
      stopTimers();
      void router.push(racePath(s.code));
    } else if (s.status === 'waiting') {
      poll ??= setInterval(() => void refresh(), POLL_MS);
      clock ??= setInterval(() => (now.value = Date.now()), 250);
    } else stopTimers();
  }

  function fail(e: unknown, fallback: string): void {
    error.value = e instanceof ApiError ? serverText(e.message, fallback) : tr(fallback);
  }

  async function refresh(): Promise<void> {
    try {
      apply(await getPairing());
    } catch (e) {
      fail(e, 'race.quick.failed');
    }
  }

  async function start(preset: QuickPreset): Promise<void> {
    busy.value = true;
    error.value = null;
    try {
      apply(await enterPairing(preset));
    } catch (e) {
      fail(e, 'race.quick.failed');
    } finally {
      busy.value = false;
    }
  }

  async function cancel(): Promise<void> {
    busy.value = true;
    error.value = null;
    try {
      apply(await leavePairing());
    } catch (e) {
      fail(e, 'race.quick.cancelFailed');
    } finally {
      busy.value = false;
    }
  }

  const stopListening = socket.onFrame((f) => {
    if (f.type === 'paired' && status.value?.status === 'waiting')
      apply({ status: 'paired', preset: status.value.preset, code: f.code });
  });

  onBeforeUnmount(() => {
    // Leaving the wait screen leaves the pool: nobody is paired into a race they are not looking at.
    if (status.value?.status === 'waiting') void leavePairing().catch(() => {});
    gone = true;
    stopTimers();
    stopListening();
  });

  return { status, waitedMs, waiting, busy, error, start, cancel, refresh };
}
