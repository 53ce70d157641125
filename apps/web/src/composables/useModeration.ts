/**
 * State of the moderators' pages (docs/moderation.md): the queue, one player's view with the
 * actions on them (mark, unmark, rename, close, dismiss, each with a reason; an appeal's decision), and the
 * audit log paged with "older". The server says who is a moderator (the `MODERATORS` setting): a 403 makes
 * `forbidden` true and the page shows a "moderators only" notice; an answer or a 403 tells useIsModerator.ts
 * (the nav's moderation link).
 */
import { computed, ref, shallowRef, watch, type Ref } from 'vue';
import {
  decideAppeal,
  getModLog,
  getModPlayer,
  getModQueue,
  modAct,
  modRename,
  type AppealOutcome,
  type ModAction,
  type ModLog,
  type ModPlayerView,
  type ModQueue,
} from '../lib/fairPlayApi';
import { tr } from '../i18n';
import { ApiError } from '../lib/errors';
import { fairPlayErrorText } from '../lib/fairPlay';
import { useLoad } from './useDaily';
import { knownModerator, rememberModerator } from './useIsModerator';
import { usePlayer } from './usePlayer';

/**
 * A moderators' load (useLoad, again when the player changes): `data` once answered, `forbidden` on a
 * 403/401 (not a moderator, or signed out), otherwise `error` in words. An answer remembers the player as a
 * moderator (useIsModerator.ts); a 403 forgets them.
 */
function useModLoad<T>(fetcher: () => Promise<T>, deps?: Ref<unknown>) {
  const player = usePlayer();
  const forbidden = ref(false);
  const load = useLoad(
    async () => {
      try {
        const v = await fetcher();
        forbidden.value = false;
        rememberMe(player);
        return v;
      } catch (e) {
        if (e instanceof ApiError && (e.code === 'forbidden' || e.code === 'unauthorized')) {
          forbidden.value = true;
          if (knownModerator.value === player.me.value?.id) rememberModerator(null);
        }
        throw e;
      }
    },
    computed(() => [player.token.value, deps?.value]),
    tr('fairPlay.error.notFound'),
  );
  return { ...load, forbidden };
}

/** Remembers the signed-in player as a moderator, once their record is here. */
function rememberMe(player: ReturnType<typeof usePlayer>): void {
  if (player.me.value) {
    rememberModerator(player.me.value.id);
    return;
  }
  const stop = watch(player.me, (me) => {
    if (!me) return;
    rememberModerator(me.id);
    stop();
  });
}

/** The moderators' queue (GET /api/mod/queue). */
export function useModQueue() {
  return useModLoad<ModQueue>(getModQueue);
}

/**
 * One player's view (GET /api/mod/players/:id) and the actions on them. Every action sends once at a time,
 * loads the view again after it, and says a refusal in `error` (409: already done).
 */
export function useModPlayer(id: Ref<string>) {
  const view = useModLoad<ModPlayerView>(() => getModPlayer(id.value), id);
  const busy = ref(false);
  const error = ref<string | null>(null);

  async function run(step: () => Promise<unknown>): Promise<boolean> {
    if (busy.value) return false;
    busy.value = true;
    error.value = null;
    try {
      await step();
      return true;
    } catch (e) {
      error.value = fairPlayErrorText(e, 'mod');
      return false;
    } finally {
      busy.value = false;
      await view.reload();
    }
  }

  return {
    ...view,
    busy,
    actionError: error,
    act: (action: ModAction, reason: string) => run(() => modAct(id.value, action, reason.trim())),
    rename: (name: string, reason: string) => run(() => modRename(id.value, name.trim(), reason.trim())),
    decide: (appealId: number, outcome: AppealOutcome, answer: string) =>
      run(() => decideAppeal(appealId, outcome, answer.trim())),
  };
}

/** The audit log (GET /api/mod/log), newest first; `older` appends the next page. */
export function useModLogPages(pageSize = 50) {
  const first = useModLoad<ModLog>(() => getModLog(undefined, pageSize));
  const older = shallowRef<ModLog['entries']>([]);
  const next = ref<number | null>(null);
  const busy = ref(false);
  const error = ref<string | null>(null);
  watch(first.data, (d) => {
    older.value = [];
    next.value = d?.next ?? null;
  });

  async function loadOlder(): Promise<void> {
    if (busy.value || next.value === null) return;
    busy.value = true;
    error.value = null;
    try {
      const page = await getModLog(next.value, pageSize);
      older.value = [...older.value, ...page.entries];
      next.value = page.next;
    } catch (e) {
      error.value = fairPlayErrorText(e, 'mod');
    } finally {
      busy.value = false;
    }
  }

  return {
    forbidden: first.forbidden,
    error: first.error,
    loaded: computed(() => first.data.value !== null),
    entries: computed(() => [...(first.data.value?.entries ?? []), ...older.value]),
    hasOlder: computed(() => next.value !== null),
    busy,
    olderError: error,
    loadOlder,
    reload: first.reload,
  };
}
