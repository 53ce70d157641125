/**
 * State of the daily pages: today's challenges with a countdown to the next daily (server clock), the archive,
 * a daily leaderboard (paged, "around me", live while the day is open), and a generic loader for the other
 * pages. Components render what these hold.
 */
import type { DailyArchiveSchema, DailyTodaySchema, LeaderboardSchema } from '@klondike/protocol';
import { computed, onScopeDispose, ref, shallowRef, watch, type Ref } from 'vue';
import type { z } from 'zod';
import { tr } from '../i18n';
import { getDailyArchive, getDailyLeaderboard, getDailyToday } from '../lib/dailyApi';
import { ApiError } from '../lib/errors';
import { offsetOfPage } from '../lib/daily';
import type { DailyPreset } from '../lib/route';
import { usePlayer } from './usePlayer';
import { useSocket } from './useSocket';

export type DailyToday = z.infer<typeof DailyTodaySchema>;
export type DailyChallenge = DailyToday['challenges'][number];
export type DailyArchive = z.infer<typeof DailyArchiveSchema>;
export type Leaderboard = z.infer<typeof LeaderboardSchema>;

/** A person's sentence for a failed page load (by the error's code; never the server's own message). */
export function loadErrorText(e: unknown, notFound = tr('load.nothing')): string {
  if (!(e instanceof ApiError)) return tr('load.failed');
  switch (e.code) {
    case 'network':
      return tr('load.network');
    case 'not-found':
      return notFound;
    case 'forbidden':
    case 'deal-embargoed':
      return tr('load.notOpen');
    case 'rate-limited':
      return tr('load.rateLimited');
    case 'unavailable':
      return tr('load.busy');
    default:
      return tr('load.failed');
  }
}

/**
 * Loads something once (and again on `reload`), keeping the last value while reloading. `error` is a sentence
 * for a person (never the server's message); `notFound` is the one said when there is nothing there.
 */
export function useLoad<T>(fetcher: () => Promise<T>, deps?: Ref<unknown>, notFound?: string) {
  const data = shallowRef<T | null>(null);
  const error = ref<string | null>(null);
  const loading = ref(false);
  let seq = 0;
  async function reload(): Promise<void> {
    const mine = ++seq;
    loading.value = true;
    error.value = null;
    try {
      const v = await fetcher();
      if (mine === seq) data.value = v;
    } catch (e) {
      if (mine === seq) error.value = loadErrorText(e, notFound);
    } finally {
      if (mine === seq) loading.value = false;
    }
  }
  if (deps) watch(deps, () => void reload());
  void reload();
  return { data, error, loading, reload };
}

/** How often the archive is loaded again while the server still prepares some of its days, ms. */
export const ARCHIVE_POLL_MS = 5000;

/**
 * Today's challenges, the archive and the countdown to the next daily. Reloads when the player changes, and
 * the archive every ARCHIVE_POLL_MS while it has days pending.
 */
export function useDailyToday() {
  const player = usePlayer();
  const today = useLoad(getDailyToday, player.token);
  const archive = useLoad<DailyArchive>(getDailyArchive, player.token);
  const skew = ref(0);
  const now = ref(Date.now());
  watch(today.data, (t) => {
    if (t) skew.value = Date.parse(t.now) - Date.now();
  });
  const timer = setInterval(() => (now.value = Date.now()), 1000);
  // The server fills the archive in the background after a first start: while some of it is still being
  // prepared, look again now and then (the list grows; nothing waits for it).
  let archivePoll: ReturnType<typeof setTimeout> | undefined;
  watch(archive.data, (a) => {
    clearTimeout(archivePoll);
    if (a && a.pending > 0) archivePoll = setTimeout(() => void archive.reload(), ARCHIVE_POLL_MS);
  });
  onScopeDispose(() => {
    clearInterval(timer);
    clearTimeout(archivePoll);
  });
  const untilNext = computed(() => {
    const t = today.data.value;
    return t ? Math.max(0, Date.parse(t.nextAt) - (now.value + skew.value)) : null;
  });
  // A new day: reload once the countdown runs out.
  watch(untilNext, (ms, old) => {
    if (ms === 0 && old !== null && old > 0) {
      void today.reload();
      void archive.reload();
    }
  });
  return { today, archive, untilNext };
}

/** Rows per leaderboard page. */
export const PAGE_SIZE = 20;

/**
 * One daily's leaderboard: a page at a time, a jump to the caller's page, and live refetches while the day is
 * open (the socket's `watch-leaderboard`, re-sent on every reconnection).
 */
export function useDailyLeaderboard(date: Ref<string>, preset: Ref<DailyPreset>, live: Ref<boolean>) {
  const socket = useSocket();
  const player = usePlayer();
  const board = shallowRef<Leaderboard | null>(null);
  const error = ref<string | null>(null);
  const loading = ref(false);
  const offset = ref(0);
  const aroundMe = ref(false);
  /** Bumped when a live update arrived (the table flashes). */
  const updates = ref(0);
  let seq = 0;

  async function load(): Promise<void> {
    const mine = ++seq;
    loading.value = true;
    try {
      const b = await getDailyLeaderboard(date.value, preset.value, {
        limit: PAGE_SIZE,
        ...(aroundMe.value ? { aroundMe: true } : { offset: offset.value }),
      });
      if (mine !== seq) return;
      board.value = b;
      offset.value = b.offset;
      error.value = null;
    } catch (e) {
      if (mine === seq) error.value = loadErrorText(e, tr('load.noDaily', { date: date.value }));
    } finally {
      if (mine === seq) loading.value = false;
    }
  }

  function goToPage(page: number): void {
    aroundMe.value = false;
    offset.value = offsetOfPage(page, { total: board.value?.total ?? 0, limit: PAGE_SIZE });
    void load();
  }

  function jumpToMe(): void {
    aroundMe.value = true;
    void load().then(() => (aroundMe.value = false));
  }

  function watchLive(): void {
    if (live.value) socket.send({ type: 'watch-leaderboard', date: date.value, preset: preset.value });
  }

  let refetchTimer: ReturnType<typeof setTimeout> | undefined;
  const offFrame = socket.onFrame((f) => {
    if (f.type !== 'leaderboard' || f.date !== date.value || f.preset !== preset.value) return;
    if (board.value && f.total === board.value.total) return; // the answer to our own watch
    clearTimeout(refetchTimer);
    refetchTimer = setTimeout(() => {
      updates.value++;
      void load();
    }, 250);
  });
  const offOpen = socket.onOpen(watchLive);
  onScopeDispose(() => {
    offFrame();
    offOpen();
    clearTimeout(refetchTimer);
  });

  watch(
    [date, preset],
    () => {
      offset.value = 0;
      aroundMe.value = false;
      board.value = null;
      void load();
      watchLive();
    },
    { immediate: true },
  );
  watch(live, watchLive);
  watch(player.token, () => void load());

  return { board, error, loading, offset, goToPage, jumpToMe, reload: load, updates };
}

/**
 * The caller's row on a daily's leaderboard once their ranked attempt has ended (asked again a few times: the
 * row is written as the attempt ends).
 */
export function useMyRank(date: Ref<string>, preset: Ref<DailyPreset>) {
  const entry = shallowRef<Leaderboard['me']>(null);
  const total = ref<number | null>(null);
  const loading = ref(true);
  const error = ref<string | null>(null);
  let alive = true;
  onScopeDispose(() => (alive = false));

  async function fetchRank(): Promise<void> {
    for (let attempt = 0; attempt < 5 && alive; attempt++) {
      try {
        const b = await getDailyLeaderboard(date.value, preset.value, { limit: 10, aroundMe: true });
        total.value = b.total;
        if (b.me) {
          entry.value = b.me;
          break;
        }
      } catch (e) {
        error.value = loadErrorText(e);
      }
      await new Promise((r) => setTimeout(r, 400 * (attempt + 1)));
    }
    loading.value = false;
  }
  void fetchRank();
  return { entry, total, loading, error };
}
