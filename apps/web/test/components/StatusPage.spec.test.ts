// @vitest-environment happy-dom
/**
 * Issue 58, the status page (/status): each part's level and reason, the overall sentence, the nodes, and
 * the incidents the operator recorded (open and resolved, major marked); the help page links to it. The
 * API answer is a fixture served through a stubbed fetch (the page, not the server, is under test here).
 */
import { flushPromises, mount } from '@vue/test-utils';
import type { StatusResponse } from '@klondike/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Component } from 'vue';
import { createMemoryHistory } from 'vue-router';
import HelpPage from '../../src/pages/HelpPage.vue';
import StatusPage from '../../src/pages/StatusPage.vue';
import { loadSchemas } from '../../src/lib/schemas';
import { createAppRouter } from '../../src/router';

const DEGRADED: StatusResponse = {
  status: 'degraded',
  parts: {
    moves: { level: 'up', reason: null },
    daily: { level: 'up', reason: null },
    races: { level: 'degraded', reason: 'redis' },
    solver: { level: 'up', reason: null },
    cluster: { level: 'degraded', reason: 'redis' },
  },
  nodes: 2,
  incidents: [
    {
      id: 'a1',
      title: 'Races between servers pause',
      details: 'We are restarting Redis.',
      impact: 'major',
      startedAt: '2026-12-06T10:00:00.000Z',
      resolvedAt: null,
    },
    {
      id: 'a0',
      title: 'Slow moves',
      details: null,
      impact: 'minor',
      startedAt: '2026-12-05T09:00:00.000Z',
      resolvedAt: '2026-12-05T09:30:00.000Z',
    },
  ],
  checkedAt: '2026-12-06T10:05:00.000Z',
};

async function mountAt(path: string, page: Component, answer: unknown) {
  await loadSchemas();
  const fetch = vi.fn((_input: RequestInfo | URL) =>
    Promise.resolve(new Response(JSON.stringify(answer), { status: 200 })),
  );
  vi.stubGlobal('fetch', fetch);
  const router = createAppRouter(createMemoryHistory());
  await router.push(path);
  await router.isReady();
  const w = mount(page, { global: { plugins: [router] } });
  await flushPromises();
  return { w, fetch, router };
}

afterEach(() => vi.unstubAllGlobals());

describe('status page', () => {
  it('says which parts are degraded and why, and lists the incidents, open first', async () => {
    const { w, fetch } = await mountAt('/status', StatusPage, DEGRADED);
    const input = fetch.mock.calls[0]?.[0];
    const url = input instanceof Request ? input.url : input instanceof URL ? input.href : (input ?? '');
    expect(url).toContain('/api/status');
    expect(w.get('[data-testid="status-overall"]').text()).toBe(
      'Some things are slow or partly unavailable.',
    );
    expect(w.get('[data-testid="status-part-moves"]').text()).toContain('Up');
    const races = w.get('[data-testid="status-part-races"]').text();
    expect(races).toContain('Degraded');
    expect(races).toContain('The servers cannot reach each other');
    expect(w.text()).toContain('2 servers running');
    const incidents = w.get('[data-testid="status-incidents"]').text();
    expect(incidents.indexOf('Races between servers pause')).toBeLessThan(incidents.indexOf('Slow moves'));
    expect(incidents).toContain('ongoing');
    expect(incidents).toContain('major');
    expect(incidents).toContain('We are restarting Redis.');
    expect(incidents).toContain('resolved');
    w.unmount();
  });

  it('a server that does not answer the schema is said to be unreachable, not shown as up', async () => {
    const { w } = await mountAt('/status', StatusPage, { status: 'up' });
    expect(w.text()).toContain('The server does not answer');
    expect(w.find('[data-testid="status-overall"]').exists()).toBe(false);
    w.unmount();
  });

  it('the help page links to /status, a lazy route', async () => {
    const { w, router } = await mountAt('/help', HelpPage, {});
    expect(w.get('[data-testid="help-status-link"]').attributes('href')).toBe('/status');
    expect(router.resolve('/status').name).toBe('status');
    w.unmount();
  });
});
