/**
 * The client's pages as vue-router routes. Every page but the table loads on demand (first-page JS stays small).
 * - `/` deals a new game (`?deal=<n>&preset=<name>`: that deal, the share link); `/game/<id>` shows a game;
 * - `/daily` today's challenges and the archive; `/daily/<date>/<preset>/leaderboard` a daily's leaderboard;
 *   `/daily/<date>/<preset>/solution` a closed daily's winning line, played on the table;
 * - `/leaderboard` the all-time leaderboard; `/players/<id>` a player's page; `/players/<id>/stats` their
 *   statistics with charts (the chart library loads with that page only); `/replay/<gameId>` a replay;
 * - `/race` sets up a live race; `/race/<code>` a race room (lobby, race, results); `/arenas` the arenas,
 *   `/arenas/<id>` one arena with its live standings;
 * - `/puzzles` the puzzles (a puzzle on the table, the player's puzzle rating), `/puzzles/daily` the puzzle of
 *   the day on it, `/puzzles/<id>` one puzzle (a shared link), `/puzzles/run` the timed run and its boards
 *   (their text: the `puzzles` section);
 * - `/settings` the player's settings; `/help` the rules of every preset and the keyboard shortcuts;
 * - `/fair-play` the rules of fair play and the published figures; `/mod` the moderators' queue,
 *   `/mod/players/<id>` a player as moderators see them (the actions), `/mod/log` the audit log (moderators
 *   only: the server refuses others, and the pages say so);
 * - `/offline`: a casual game dealt and played in the browser with no network (kept locally, unverified);
 * - anything else: a "not found" page (never a silent new deal).
 * Pages whose text is in a message section of its own (src/i18n `MessageSection`) load it with their code, in
 * parallel, and the route resolves with both, so no key shows raw: `fair-play` for the fair-play and
 * moderators' pages, a player's page (report button, standing), a race room (report buttons in the results)
 * and the help page (its fair-play part); `help` for the help page and the fair-play page (its link back).
 * `meta.layout` says whether a route is the card table (its own top bar) or a page under the page bar;
 * `meta.nav` which section link is lit.
 */
import { DAILY_PRESETS } from '@klondike/protocol/constants';
import { createRouter, createWebHistory, type Router, type RouterHistory } from 'vue-router';
import { useNotify } from './composables/useNotify';
import { loadMessageSection, tr, type MessageSection } from './i18n';
import { isChunkLoadError, reloadOnce, routeLoading } from './lib/chunkReload';
import PlayPage from './pages/PlayPage.vue';

/** A section of the nav bar. */
export type NavSection = 'play' | 'daily' | 'puzzles' | 'race' | 'leaderboard' | 'me';

declare module 'vue-router' {
  interface RouteMeta {
    /** `table`: the play page with its own top bar; `page`: under the page bar. */
    layout: 'table' | 'page';
    /** The nav link lit on this route (`me` is decided against the signed-in player). */
    nav?: NavSection | null;
    /** The page fills the space below the bar instead of scrolling (replays, race rooms). */
    fill?: boolean;
  }
}

const ID = '[A-Za-z0-9_-]{1,64}';
const DATE = '\\d{4}-\\d{2}-\\d{2}';
/** Invite codes: 10 characters of an alphabet without look-alikes (typed in lower case, a link still works). */
const RACE_CODE = '[A-HJ-NP-Za-hj-np-z2-9]{10}';

/**
 * A lazy page's loader that also loads the message `sections` its text needs (all fetched at once; the
 * route resolves when all are here, and fails as a page that cannot be fetched does).
 */
export function withMessages<T>(page: () => Promise<T>, ...sections: MessageSection[]): () => Promise<T> {
  return () => Promise.all([page(), ...sections.map(loadMessageSection)]).then(([m]) => m);
}

/** Builds the router over `history` (a memory history in component tests). */
export function createAppRouter(history: RouterHistory = createWebHistory()): Router {
  const router = createRouter({
    history,
    routes: [
      { path: '/', name: 'new', component: PlayPage, meta: { layout: 'table', nav: 'play' } },
      { path: `/game/:id(${ID})`, name: 'game', component: PlayPage, meta: { layout: 'table', nav: 'play' } },
      {
        path: '/daily',
        name: 'daily',
        component: () => import('./pages/DailyPage.vue'),
        meta: { layout: 'page', nav: 'daily' },
      },
      {
        path: `/daily/:date(${DATE})/:preset(${DAILY_PRESETS.join('|')})/leaderboard`,
        name: 'daily-leaderboard',
        component: () => import('./pages/DailyLeaderboardPage.vue'),
        props: true,
        meta: { layout: 'page', nav: 'daily' },
      },
      {
        path: `/daily/:date(${DATE})/:preset(${DAILY_PRESETS.join('|')})/solution`,
        name: 'daily-solution',
        component: () => import('./pages/ReplayPage.vue'),
        props: true,
        meta: { layout: 'page', nav: 'daily', fill: true },
      },
      {
        path: '/leaderboard',
        name: 'leaderboard',
        component: () => import('./pages/AllTimePage.vue'),
        meta: { layout: 'page', nav: 'leaderboard' },
      },
      {
        path: `/players/:id(${ID})`,
        name: 'player',
        component: withMessages(() => import('./pages/PlayerPage.vue'), 'fair-play'),
        props: true,
        meta: { layout: 'page', nav: 'me' },
      },
      {
        path: `/players/:id(${ID})/stats`,
        name: 'player-stats',
        component: () => import('./pages/StatsPage.vue'),
        props: true,
        meta: { layout: 'page', nav: 'me' },
      },
      {
        path: `/replay/:gameId(${ID})`,
        name: 'replay',
        component: () => import('./pages/ReplayPage.vue'),
        props: true,
        meta: { layout: 'page', nav: null, fill: true },
      },
      {
        path: `/review/:gameId(${ID})`,
        name: 'review',
        component: () => import('./pages/ReplayPage.vue'),
        props: (route) => ({ gameId: route.params.gameId, review: true }),
        meta: { layout: 'page', nav: null, fill: true },
      },
      {
        path: '/puzzles',
        name: 'puzzles',
        component: withMessages(() => import('./pages/PuzzlesPage.vue'), 'puzzles'),
        meta: { layout: 'page', nav: 'puzzles' },
      },
      {
        path: '/puzzles/daily',
        name: 'puzzle-daily',
        component: withMessages(() => import('./pages/PuzzlesPage.vue'), 'puzzles'),
        props: { daily: true },
        meta: { layout: 'page', nav: 'puzzles' },
      },
      {
        path: `/puzzles/:id(${ID})`,
        name: 'puzzle',
        component: withMessages(() => import('./pages/PuzzlesPage.vue'), 'puzzles'),
        props: true,
        meta: { layout: 'page', nav: 'puzzles' },
      },
      {
        path: '/puzzles/run',
        name: 'puzzle-run',
        component: withMessages(() => import('./pages/PuzzleRunPage.vue'), 'puzzles'),
        meta: { layout: 'page', nav: 'puzzles' },
      },
      {
        path: '/race',
        name: 'race-new',
        component: () => import('./pages/RaceNewPage.vue'),
        meta: { layout: 'page', nav: 'race' },
      },
      {
        path: '/arenas',
        name: 'arenas',
        component: () => import('./pages/ArenasPage.vue'),
        meta: { layout: 'page', nav: 'race' },
      },
      {
        path: `/arenas/:id(${RACE_CODE})`,
        name: 'arena',
        component: () => import('./pages/ArenaPage.vue'),
        props: true,
        meta: { layout: 'page', nav: 'race' },
      },
      {
        path: `/race/:code(${RACE_CODE})`,
        name: 'race',
        component: withMessages(() => import('./pages/RacePage.vue'), 'fair-play'),
        props: true,
        meta: { layout: 'page', nav: 'race', fill: true },
      },
      {
        path: '/settings',
        name: 'settings',
        component: () => import('./pages/SettingsPage.vue'),
        meta: { layout: 'page', nav: null },
      },
      {
        path: '/settings/tokens',
        name: 'tokens',
        component: withMessages(() => import('./pages/TokensPage.vue'), 'tokens'),
        meta: { layout: 'page', nav: null },
      },
      {
        path: '/help',
        name: 'help',
        component: withMessages(() => import('./pages/HelpPage.vue'), 'help', 'fair-play'),
        meta: { layout: 'page', nav: null },
      },
      {
        path: '/fair-play',
        name: 'fair-play',
        component: withMessages(() => import('./pages/FairPlayPage.vue'), 'fair-play', 'help'),
        meta: { layout: 'page', nav: null },
      },
      {
        path: '/mod',
        name: 'mod',
        component: withMessages(() => import('./pages/ModerationPage.vue'), 'fair-play'),
        meta: { layout: 'page', nav: null },
      },
      {
        path: `/mod/players/:id(${ID})`,
        name: 'mod-player',
        component: withMessages(() => import('./pages/ModPlayerPage.vue'), 'fair-play'),
        props: true,
        meta: { layout: 'page', nav: null },
      },
      {
        path: '/mod/log',
        name: 'mod-log',
        component: withMessages(() => import('./pages/ModLogPage.vue'), 'fair-play'),
        meta: { layout: 'page', nav: null },
      },
      {
        path: '/status',
        name: 'status',
        component: () => import('./pages/StatusPage.vue'),
        meta: { layout: 'page', nav: null },
      },
      {
        path: '/offline',
        name: 'offline',
        component: withMessages(() => import('./pages/OfflinePage.vue'), 'a11y'),
        meta: { layout: 'page', nav: 'play', fill: true },
      },
      {
        path: '/:pathMatch(.*)*',
        name: 'not-found',
        component: () => import('./pages/NotFoundPage.vue'),
        meta: { layout: 'page', nav: null },
      },
    ],
  });
  // A race link typed in lower case finds its room (the codes are upper case).
  router.beforeEach((to) => {
    if (to.name !== 'race') return true;
    const code = String(to.params.code);
    return code === code.toUpperCase()
      ? true
      : { name: 'race', params: { code: code.toUpperCase() }, replace: true };
  });
  // A lazy page of an older build that is gone (a deploy since this tab loaded): the address is loaded again,
  // once (lib/chunkReload.ts), which brings the new build; a second failure says the page cannot be loaded.
  router.beforeEach(() => routeLoading(true));
  router.onError((err: unknown, to) => {
    routeLoading(false);
    if (isChunkLoadError(err) && !reloadOnce(to.fullPath)) useNotify().toast(tr('common.error'));
  });
  router.afterEach((to, from) => {
    routeLoading(false);
    if (to.path === from.path) return;
    const main = typeof document === 'undefined' ? null : document.querySelector('.page-main');
    if (main) main.scrollTop = 0;
  });
  return router;
}
