/**
 * One race room, live: fetched over REST, then kept current by the socket (`race-subscribe`, re-sent on every
 * reconnection so a dropped connection resyncs, and after joining so the server knows this connection as a
 * racer). `race` frames replace the room whole; `race-progress` frames patch one racer. Also keeps the
 * server clock offset (from each room's `serverNow`) and a ticking local clock for countdowns and race times,
 * and fetches the results once the race has finished. Scoped to the component that calls it.
 */
import type { Race } from '@klondike/protocol';
import { computed, onScopeDispose, ref, shallowRef, watch } from 'vue';
import { serverText, tr } from '../i18n';
import { ApiError } from '../lib/api';
import { clockOffset, withProgress } from '../lib/race';
import {
  getRace,
  getRaceResults,
  joinRace,
  rematchRace,
  setReady,
  startRace,
  type RaceResults,
} from '../lib/raceApi';
import { usePlayer } from './usePlayer';
import type { Socket } from './useSocket';

export function useRace(socket: Socket, code: () => string) {
  const player = usePlayer();
  const race = shallowRef<Race | null>(null);
  const results = shallowRef<RaceResults | null>(null);
  const error = ref<string | null>(null);
  const notFound = ref(false);
  /** Server clock − local clock, ms. */
  const offset = ref(0);
  /** Local clock, ticking every 100 ms (countdowns, race times). */
  const now = ref(Date.now());
  const timer = setInterval(() => (now.value = Date.now()), 100);

  function take(r: Race): void {
    if (r.code !== code()) return;
    offset.value = clockOffset(r.serverNow, Date.now());
    race.value = r;
  }

  function subscribe(): void {
    socket.send({ type: 'race-subscribe', code: code() });
  }

  /**
   * Subscribes afresh (unsubscribe, then subscribe): after signing in or joining, so the server files this
   * connection under the racer and no longer under a spectator.
   */
  function resubscribe(): void {
    socket.send({ type: 'race-unsubscribe', code: code() });
    subscribe();
  }

  async function load(): Promise<void> {
    error.value = null;
    notFound.value = false;
    try {
      take(await getRace(code()));
    } catch (e) {
      if (e instanceof ApiError && e.code === 'not-found') notFound.value = true;
      else
        error.value =
          e instanceof ApiError ? serverText(e.message, 'race.loadFailed') : tr('race.loadFailed');
    }
  }

  const offFrame = socket.onFrame((f) => {
    if (f.type === 'race') take(f.race);
    else if (f.type === 'race-progress' && race.value && f.code === race.value.code)
      race.value = withProgress(race.value, f.playerId, f.progress);
  });
  // A race may have moved on while the connection was down: the subscribe answer brings the whole room.
  const offOpen = socket.onOpen(subscribe);

  // Signing in changes who this connection is: subscribe again so the room is seen as a racer.
  watch(player.token, resubscribe);

  watch(code, (c, old) => {
    if (old) socket.send({ type: 'race-unsubscribe', code: old });
    race.value = null;
    results.value = null;
    subscribe();
    void load();
  });

  watch(
    () => race.value?.status === 'finished' && race.value.code,
    (finishedCode) => {
      if (!finishedCode || results.value?.code === finishedCode) return;
      getRaceResults(finishedCode).then(
        (r) => {
          if (r.code === race.value?.code) results.value = r;
        },
        () => {
          /* the room itself still shows placements */
        },
      );
    },
  );

  subscribe();
  void load();

  onScopeDispose(() => {
    clearInterval(timer);
    offFrame();
    offOpen();
    socket.send({ type: 'race-unsubscribe', code: code() });
  });

  /** Runs a room action; its answer (a room) is taken at once, the frames follow. Errors become `error`. */
  async function act(fn: () => Promise<Race>): Promise<Race | null> {
    error.value = null;
    try {
      const r = await fn();
      take(r);
      return r;
    } catch (e) {
      error.value = e instanceof ApiError ? serverText(e.message, 'common.error') : tr('common.error');
      return null;
    }
  }

  return {
    race,
    results,
    error,
    notFound,
    offset,
    now,
    me: computed(() => race.value?.racers.find((r) => r.playerId === race.value?.you) ?? null),
    load,
    join: async () => {
      const r = await act(() => joinRace(code()));
      resubscribe();
      return r;
    },
    ready: (ready: boolean) => act(() => setReady(code(), ready)),
    start: () => act(() => startRace(code())),
    /** The rematch room (created or existing); the caller navigates to it. */
    rematch: () => act(() => rematchRace(code())),
  };
}

export type RaceRoom = ReturnType<typeof useRace>;
