// @vitest-environment happy-dom
/**
 * The web side of fair play against a fake `fetch` answering like the server's routes (the components and
 * composables, not the server, are under test here; the e2e test runs them against the real one):
 * - the report dialog sends the reason, words and game once, and says a 409 ("already reported") and a 429
 *   ("too many") in words, keeping the dialog open;
 * - the marked player's own panel: the appeal form refuses a too-short text without a request, sends one
 *   appeal, shows its status; a second device's 409 shows "already appealed" and the appeal it sent;
 * - /mod to a non-moderator: the "moderators only" notice (no broken page), and the nav link stays hidden;
 *   to a moderator: the queue, and the nav link appears;
 * - the player view: a mark asks for a reason (too short: no request), sends it, and a 409 (another
 *   moderator was quicker) is said in the dialog; a rename sends the new name with its reason;
 * - the audit log pages with "older" from the last page's cursor.
 */
import { flushPromises, mount } from '@vue/test-utils';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { nextTick } from 'vue';
import { createMemoryHistory } from 'vue-router';
import FairPlayStatus from '../../src/components/FairPlayStatus.vue';
import NavLinks from '../../src/components/NavLinks.vue';
import ReportDialog from '../../src/components/ReportDialog.vue';
import { useNotify } from '../../src/composables/useNotify';
import { loadMessageSection } from '../../src/i18n';
import { usePlayer } from '../../src/composables/usePlayer';
import { loadSchemas } from '../../src/lib/schemas';
import ModerationPage from '../../src/pages/ModerationPage.vue';
import ModLogPage from '../../src/pages/ModLogPage.vue';
import ModPlayerPage from '../../src/pages/ModPlayerPage.vue';
import { createAppRouter } from '../../src/router';

const T = '2026-12-06T10:00:00.000Z';
const ME = { id: 'MeMeMeMeMeMeMeMe', name: 'Moderna' };

/** What the fake server was asked: method, path with query, JSON body. */
let calls: { method: string; path: string; body: unknown }[] = [];
/** Answers by `METHOD path` (path with query): status and body, or a function of the request body. */
let routes: Record<string, (body: unknown) => [number, unknown]> = {};

function fakeServer(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const path = typeof input === 'string' ? input : input instanceof URL ? input.pathname : input.url;
  const method = init?.method ?? 'GET';
  const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
  calls.push({ method, path, body });
  const route = routes[`${method} ${path}`];
  const [status, answer] = route
    ? route(body)
    : [404, { error: { code: 'not-found', message: `no ${path}` } }];
  return Promise.resolve(
    new Response(JSON.stringify(answer), { status, headers: { 'content-type': 'application/json' } }),
  );
}

const refusal = (code: string, status: number): [number, unknown] => [
  status,
  { error: { code, message: code } },
];

const mark = {
  id: 7,
  playerId: ME.id,
  reason: 'solver agreement on every game',
  createdAt: T,
  liftedAt: null,
};
const appeal = (text: string, status = 'open') => ({
  id: 3,
  playerId: ME.id,
  markId: 7,
  text,
  createdAt: T,
  status,
  answer: null,
  decidedAt: null,
});

async function router() {
  const r = createAppRouter(createMemoryHistory());
  await r.push('/');
  await r.isReady();
  return r;
}

// The components are mounted without their routes, which load the section in the app.
beforeAll(() => loadMessageSection('fair-play'));

beforeEach(async () => {
  await loadSchemas();
  calls = [];
  routes = {};
  vi.stubGlobal('fetch', vi.fn(fakeServer));
  localStorage.clear();
  const player = usePlayer();
  player.token.value = 'a-token';
  player.me.value = {
    ...ME,
    bot: false,
    createdAt: T,
    stats: {
      played: 0,
      wins: 0,
      winRate: 0,
      currentStreak: 0,
      bestStreak: 0,
      bestTimeMs: { 'classic-draw1': null, 'classic-draw3': null },
    },
    settings: {},
  };
});
afterEach(() => {
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
});

describe('report dialog', () => {
  const mountDialog = () =>
    mount(ReportDialog, {
      props: { playerId: 'SuspectSuspect01', playerName: 'Suspect', gameId: 'game-1' },
      attachTo: document.body,
    });

  it('needs a reason, then sends reason, words and game once and closes with thanks', async () => {
    routes['POST /api/reports'] = (b) => [
      201,
      {
        id: 1,
        reporterId: ME.id,
        reason: 'assistance',
        gameId: 'game-1',
        text: null,
        createdAt: T,
        status: 'open',
        ...(b as object),
      },
    ];
    const w = mountDialog();
    await w.get('[data-testid=report-submit]').trigger('submit');
    await flushPromises();
    expect(w.get('[data-testid=report-error]').text()).toBe('Choose a reason.');
    expect(calls).toEqual([]);
    await w.get('[data-testid=report-reason-assistance]').setValue(true);
    await w.get('[data-testid=report-text]').setValue('  every move instant  ');
    await w.get('form').trigger('submit');
    await w.get('form').trigger('submit'); // a double click sends one report
    await flushPromises();
    expect(calls).toEqual([
      {
        method: 'POST',
        path: '/api/reports',
        body: {
          playerId: 'SuspectSuspect01',
          reason: 'assistance',
          gameId: 'game-1',
          text: 'every move instant',
        },
      },
    ]);
    expect(w.emitted('close')).toHaveLength(1);
    expect(useNotify().toasts.map((t) => t.text)).toContain(
      'Thank you: your report on Suspect goes to the moderators.',
    );
    w.unmount();
  });

  it('a second report while one is open (409) and too many (429) are said in words; the dialog stays', async () => {
    routes['POST /api/reports'] = () => refusal('conflict', 409);
    const w = mountDialog();
    await w.get('[data-testid=report-reason-boosting]').setValue(true);
    await w.get('form').trigger('submit');
    await flushPromises();
    expect(w.get('[data-testid=report-error]').text()).toMatch(/already reported this player/);
    expect(w.emitted('close')).toBeUndefined();
    routes['POST /api/reports'] = () => refusal('rate-limited', 429);
    await w.get('form').trigger('submit');
    await flushPromises();
    expect(w.get('[data-testid=report-error]').text()).toMatch(/Too many/);
    w.unmount();
  });
});

describe('the marked player’s own standing', () => {
  it('refuses a short appeal without a request, sends one appeal and shows its status', async () => {
    routes['GET /api/me/fair-play'] = () => [200, { marked: true, mark, appeal: null, canAppeal: true }];
    routes['POST /api/appeals'] = (b) => [201, appeal((b as { text: string }).text)];
    const w = mount(FairPlayStatus, { global: { plugins: [await router()] } });
    await flushPromises();
    expect(w.get('[data-testid=fair-play-mark]').text()).toContain('solver agreement on every game');
    await w.get('[data-testid=appeal-text]').setValue('too short');
    await w.get('form').trigger('submit');
    await flushPromises();
    expect(w.get('[data-testid=appeal-error]').text()).toBe('Write at least 10 characters.');
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
    await w.get('[data-testid=appeal-text]').setValue('I play fast because I know this deal by heart.');
    await w.get('form').trigger('submit');
    await flushPromises();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([
      {
        method: 'POST',
        path: '/api/appeals',
        body: { text: 'I play fast because I know this deal by heart.' },
      },
    ]);
    expect(w.get('[data-testid=appeal-status]').text()).toBe('Waiting for a moderator');
    expect(w.find('[data-testid=appeal-text]').exists()).toBe(false);
  });

  it('an appeal already sent from another device (409): "already appealed", and that appeal shown', async () => {
    let appealed = false;
    routes['GET /api/me/fair-play'] = () => [
      200,
      {
        marked: true,
        mark,
        appeal: appealed ? appeal('Sent from my phone first.') : null,
        canAppeal: !appealed,
      },
    ];
    routes['POST /api/appeals'] = () => {
      appealed = true;
      return refusal('conflict', 409);
    };
    const w = mount(FairPlayStatus, { global: { plugins: [await router()] } });
    await flushPromises();
    await w.get('[data-testid=appeal-text]').setValue('A second appeal, from this laptop.');
    await w.get('form').trigger('submit');
    await flushPromises();
    expect(w.get('[data-testid=appeal-error]').text()).toMatch(/already appealed/);
    expect(w.get('[data-testid=fair-play-appeal]').text()).toContain('Sent from my phone first.');
  });

  it('in good standing: nothing shown', async () => {
    routes['GET /api/me/fair-play'] = () => [
      200,
      { marked: false, mark: null, appeal: null, canAppeal: false },
    ];
    const w = mount(FairPlayStatus, { global: { plugins: [await router()] } });
    await flushPromises();
    expect(w.find('[data-testid=fair-play-status]').exists()).toBe(false);
  });
});

describe('moderators’ pages', () => {
  it('a non-moderator sees "moderators only", and no moderation link in the nav', async () => {
    routes['GET /api/mod/queue'] = () => refusal('forbidden', 403);
    const r = await router();
    const page = mount(ModerationPage, { global: { plugins: [r] } });
    const nav = mount(NavLinks, { props: { active: null, playHref: '/' }, global: { plugins: [r] } });
    await flushPromises();
    expect(page.get('[data-testid=mod-only]').text()).toContain('Moderators only');
    expect(page.find('[data-testid=mod-queue-link]').exists()).toBe(false);
    expect(nav.find('[data-testid=nav-mod]').exists()).toBe(false);
  });

  it('a moderator sees the queue with reports and signals, and then the nav link', async () => {
    const player = {
      id: 'SuspectSuspect01',
      name: 'Suspect',
      bot: false,
      createdAt: T,
      markedAt: null,
      closedAt: null,
    };
    routes['GET /api/mod/queue'] = () => [
      200,
      {
        entries: [
          {
            player,
            flags: [],
            reports: [
              {
                id: 1,
                reporterId: ME.id,
                playerId: player.id,
                reason: 'assistance',
                gameId: null,
                text: 'instant moves',
                createdAt: T,
                status: 'open',
              },
            ],
            appeal: null,
            games: [
              {
                gameId: 'game-1',
                playerId: player.id,
                kind: 'race',
                moves: 120,
                medianGapMs: 90,
                fastShare: 0.8,
                gapVariation: 0.1,
                solverAgreement: 1,
                hiddenChoices: 4,
                hiddenHits: 4,
                flags: ['machine-speed'],
                computedAt: T,
              },
            ],
          },
        ],
        nextCursor: null,
      },
    ];
    const r = await router();
    const page = mount(ModerationPage, { global: { plugins: [r] } });
    const nav = mount(NavLinks, { props: { active: null, playHref: '/' }, global: { plugins: [r] } });
    await flushPromises();
    const entry = page.get('[data-testid=queue-Suspect]');
    expect(entry.get('[data-testid=queue-report]').text()).toContain('instant moves');
    const cells = entry.findAll('[data-testid=signals-table] tbody td').map((td) => td.text());
    expect(cells).toEqual(['game-1', 'Race', '120', '0.09 s', '80%', '0.10', '100%', '4/4', 'machine-speed']);
    await nextTick();
    expect(nav.find('[data-testid=nav-mod]').exists()).toBe(true);
  });

  it('the audit log pages with "older" from the cursor', async () => {
    const action = (id: number) => ({
      id,
      moderatorId: ME.id,
      moderatorName: ME.name,
      action: 'mark',
      playerId: 'SuspectSuspect01',
      reason: `reason ${id}`,
      details: {},
      createdAt: T,
    });
    routes['GET /api/mod/log?limit=50'] = () => [
      200,
      { entries: [action(9), action(8)], next: 8, nextCursor: null },
    ];
    routes['GET /api/mod/log?before=8&limit=50'] = () => [
      200,
      { entries: [action(7)], next: null, nextCursor: null },
    ];
    const w = mount(ModLogPage, { global: { plugins: [await router()] } });
    await flushPromises();
    expect(w.findAll('[data-testid=mod-log] tbody tr')).toHaveLength(2);
    await w.get('[data-testid=mod-log-older]').trigger('click');
    await flushPromises();
    expect(w.findAll('[data-testid=mod-log] tbody tr').map((tr) => tr.find('.reason').text())).toEqual([
      'reason 9',
      'reason 8',
      'reason 7',
    ]);
    expect(w.find('[data-testid=mod-log-older]').exists()).toBe(false);
  });

  it('the player view: mark with a reason (409 said in the dialog), rename with a name and a reason', async () => {
    const player = {
      id: 'SuspectSuspect01',
      name: 'Suspect',
      bot: false,
      createdAt: T,
      markedAt: null,
      closedAt: null,
    };
    const view = {
      player,
      flags: [],
      reports: [],
      appeal: null,
      games: [],
      marks: [],
      allReports: [],
      actions: [],
    };
    routes[`GET /api/mod/players/${player.id}`] = () => [200, view];
    routes[`POST /api/mod/players/${player.id}/mark`] = () => refusal('conflict', 409);
    routes[`POST /api/mod/players/${player.id}/rename`] = () => [200, view];
    const w = mount(ModPlayerPage, {
      props: { id: player.id },
      global: { plugins: [await router()] },
      attachTo: document.body,
    });
    await flushPromises();
    await w.get('[data-testid=mod-mark]').trigger('click');
    await w.get('[data-testid=mod-reason]').setValue('no');
    await w.get('[data-testid=mod-dialog] form').trigger('submit');
    await flushPromises();
    expect(w.get('[data-testid=mod-error]').text()).toBe('Write a reason of at least 3 characters.');
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
    await w.get('[data-testid=mod-reason]').setValue('Solver line in every race.');
    await w.get('[data-testid=mod-dialog] form').trigger('submit');
    await flushPromises();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([
      {
        method: 'POST',
        path: `/api/mod/players/${player.id}/mark`,
        body: { reason: 'Solver line in every race.' },
      },
    ]);
    expect(w.get('[data-testid=mod-error]').text()).toMatch(/already done/);
    await w.get('[data-testid=mod-cancel]').trigger('click');
    await w.get('[data-testid=mod-rename]').trigger('click');
    await w.get('[data-testid=mod-name]').setValue('Player 7');
    await w.get('[data-testid=mod-reason]').setValue('Impersonates a moderator.');
    await w.get('[data-testid=mod-dialog] form').trigger('submit');
    await flushPromises();
    expect(calls.filter((c) => c.method === 'POST').at(-1)).toEqual({
      method: 'POST',
      path: `/api/mod/players/${player.id}/rename`,
      body: { name: 'Player 7', reason: 'Impersonates a moderator.' },
    });
    expect(w.find('[data-testid=mod-dialog]').exists()).toBe(false);
    w.unmount();
  });
});
