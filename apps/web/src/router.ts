/**
 * The client's pages as vue-router routes. Every page but the table loads on demand (first-page JS stays small).
 * - `/` deals a new game (`?deal=<n>&preset=<name>`: that deal, the share link); `/game/<id>` shows a game;
 * - `/daily` today's challenges and the archive; `/daily/<date>/<preset>/leaderboard` a daily's leaderboard;
 *   `/daily/<date>/<preset>/solution` a closed daily's winning line, played on the table;
 * - `/leaderboard` the all-time leaderboard; `/players/<id>` a player's page; `/players/<id>/stats` their
 *   statistics with charts (the chart library loads with that page only); `/replay/<gameId>` a replay;
 * - `/race` sets up a live race; `/race/<code>` a race room (lobby, race, results); `/arenas` the arenas,
 *   `/arenas/<id>` one arena with its live standings;
 * - `/settings` the player's settings; `/help` the rules of every preset and the keyboard shortcuts;
 * - anything else: a "not found" page (never a silent new deal).
 * `meta.layout` says whether a route is the card table (its own top bar) or a page under the page bar;
 * `meta.nav` which section link is lit.
 */
import { DAILY_PRESETS } from '@klondike/protocol/constants';
import { createRouter, createWebHistory, type Router, type RouterHistory } from 'vue-router';
import PlayPage from './pages/PlayPage.vue';

/** A section of the nav bar. */
export type NavSection = 'play' | 'daily' | 'race' | 'leaderboard' | 'me';

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
        component: () => import('./pages/PlayerPage.vue'),
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
        component: () => import('./pages/RacePage.vue'),
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
        path: '/help',
        name: 'help',
        component: () => import('./pages/HelpPage.vue'),
        meta: { layout: 'page', nav: null },
      },
      {
        path: '/status',
        name: 'status',
        component: () => import('./pages/StatusPage.vue'),
        meta: { layout: 'page', nav: null },
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
  router.afterEach((to, from) => {
    if (to.path === from.path) return;
    const main = typeof document === 'undefined' ? null : document.querySelector('.page-main');
    if (main) main.scrollTop = 0;
  });
  return router;
}
