// @vitest-environment happy-dom
/**
 * RaceResults: the headline of a finished race, a shared first place among them (equal non-winners tie), and
 * the Report button beside each other racer (never beside yourself, never for a spectator).
 */
import type { Race } from '@klondike/protocol';
import { mount } from '@vue/test-utils';
import { beforeAll, describe, expect, it } from 'vitest';
import RaceResults from '../../src/components/race/RaceResults.vue';
import { loadMessageSection } from '../../src/i18n';
import type { RaceProgress, Racer } from '../../src/lib/race';

function racer(name: string, placement: number, status: RaceProgress['status']): Racer {
  return {
    playerId: `id-${name}`,
    name,
    bot: false,
    host: name === 'Ann',
    ready: true,
    presence: 'here',
    progress: { foundationCards: 0, faceDown: 21, moves: 0, score: 0, elapsedMs: 1000, status },
    placement,
    berserk: false,
  };
}

function finished(racers: Racer[], you: string): Race {
  return {
    code: 'ABCDEFGHJK',
    url: '/race/ABCDEFGHJK',
    status: 'finished',
    preset: 'classic-draw1',
    options: {
      draw: 1,
      redeals: null,
      tableauMoves: 'anyRun',
      foundationToTableau: true,
      scoring: 'standard',
      timed: true,
      undo: true,
      hints: false,
      finalSinglePass: false,
    },
    knownDeal: false,
    rated: false,
    arenaId: null,
    dealCommitment: null,
    maxPlayers: 2,
    timeLimitMs: null,
    startsAt: '2026-12-06T12:00:00.000Z',
    endedAt: '2026-12-06T12:01:00.000Z',
    serverNow: '2026-12-06T12:01:00.000Z',
    countdownMs: 3000,
    racers,
    spectators: 0,
    you,
    yourGameId: null,
    rematchCode: null,
  };
}

const headline = (race: Race): string =>
  mount(RaceResults, {
    props: { race, results: null, busy: false, error: null },
    global: { stubs: { RouterLink: true } },
  })
    .get('[data-testid="race-headline"]')
    .text();

describe('RaceResults', () => {
  // RacePage's route loads the section with the page (src/router.ts).
  beforeAll(() => loadMessageSection('fair-play'));

  it('a racer sharing first place reads that they came first, not that the other did', () => {
    const tied = [racer('Ann', 1, 'resigned'), racer('Bob', 1, 'resigned')];
    expect(headline(finished(tied, 'id-Bob'))).toBe('You came first!');
    expect(headline(finished(tied, 'id-Ann'))).toBe('You came first!');
  });

  it('a racer placed below reads who came first', () => {
    const race = finished([racer('Ann', 1, 'resigned'), racer('Bob', 2, 'resigned')], 'id-Bob');
    expect(headline(race)).toBe('Ann came first');
  });

  it('a racer can report the other racers, not themself; a spectator reports nobody', () => {
    const racers = [racer('Ann', 1, 'won'), racer('Bob', 2, 'resigned')];
    const reportButtons = (you: string | null) =>
      mount(RaceResults, {
        props: { race: { ...finished(racers, 'id-Bob'), you }, results: null, busy: false, error: null },
        global: { stubs: { RouterLink: true } },
      })
        .findAll('[data-testid^="report-"]')
        .map((b) => b.attributes('data-testid'));
    expect(reportButtons('id-Bob')).toEqual(['report-Ann']);
    expect(reportButtons('id-Ann')).toEqual(['report-Bob']);
    expect(reportButtons(null)).toEqual([]);
  });
});
