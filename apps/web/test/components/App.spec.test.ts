// @vitest-environment happy-dom
/**
 * The app shell with its real router (memory history): a page route renders under the page bar with its section
 * lit; an unknown address renders the not-found page, and nothing deals a game.
 */
import { flushPromises, mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import { createMemoryHistory } from 'vue-router';
import App from '../../src/App.vue';
import { createAppRouter } from '../../src/router';

async function at(path: string) {
  const router = createAppRouter(createMemoryHistory());
  await router.push(path);
  await router.isReady();
  const w = mount(App, { global: { plugins: [router] }, attachTo: document.body });
  await flushPromises();
  await new Promise((r) => setTimeout(r, 50)); // the lazily loaded page component
  await flushPromises();
  return { w, router };
}

describe('App shell', () => {
  it('an unknown address shows "Page not found" under the page bar, with ways on', async () => {
    const { w } = await at('/no/such/page');
    expect(w.get('[data-testid="not-found"]').text()).toContain('Page not found');
    expect(w.get('[data-testid="not-found"]').text()).toContain('/no/such/page');
    expect(w.find('.pagebar').exists()).toBe(true);
    expect(w.find('[data-testid="table"]').exists()).toBe(false); // no table, no new deal
    const links = w.findAll('[data-testid="not-found"] a').map((a) => a.attributes('href'));
    expect(links).toEqual(['/', '/daily', '/leaderboard']);
    w.unmount();
  });

  it('the nav links are real links, and the section of the page is lit', async () => {
    const { w } = await at('/no/such/page');
    expect(w.get('[data-testid="nav-daily"]').attributes('href')).toBe('/daily');
    expect(w.get('[data-testid="nav-race"]').attributes('href')).toBe('/race');
    expect(w.get('[data-testid="nav-daily"]').classes()).not.toContain('on');
    w.unmount();
  });
});
