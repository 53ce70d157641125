/**
 * Names that impersonate (issue 55, "Names and arenas"): invisible, filler and bidi-control characters and
 * words mixing look-alike alphabets are refused as invalid (400); a name whose confusable skeleton is another
 * player's is refused as taken (409), on sign-up and on rename. Honest names in any script still pass.
 */
import { ErrorBodySchema, MeSchema, PlayerCreatedSchema, PlayerNameSchema } from '@klondike/protocol';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillNameSkeletons, nameSkeleton } from '../../../src/features/players/players.js';
import { describeEachDatabase, testApp } from '../../support/helpers.js';

type Player = ReturnType<typeof PlayerCreatedSchema.parse>;

function expectError(r: LightMyRequestResponse, status: number, code: string): string {
  expect(r.statusCode, r.body).toBe(status);
  const body = ErrorBodySchema.parse(r.json());
  expect(body.error.code).toBe(code);
  return body.error.message;
}

/** Names refused as invalid, each with the reason, and the text the refusal must mention. */
const INVALID: readonly (readonly [string, RegExp])[] = [
  ['\u3164\u3164\u3164', /invisible/], // Hangul filler only
  ['\u115Fbob', /invisible/], // Hangul choseong filler
  ['bo\u1160b', /invisible/], // Hangul jungseong filler
  ['bob\uFFA0', /invisible/], // half-width Hangul filler
  ['bo\u200Bb', /invisible/], // zero-width space
  ['bo\u200Cb', /invisible/], // zero-width non-joiner
  ['bo\u200Db', /invisible/], // zero-width joiner
  ['bo\u2060b', /invisible/], // word joiner
  ['bo\uFEFFb', /invisible/], // zero-width no-break space (trimmed at either end)
  ['bo\u202Eb', /invisible/], // right-to-left override
  ['bo\u202Ab', /invisible/], // left-to-right embedding
  ['bo\u2066b', /invisible/], // left-to-right isolate
  ['bo\u2069b', /invisible/], // pop directional isolate
  ['bo\u200Fb', /invisible/], // right-to-left mark
  ['bo\u061Cb', /invisible/], // Arabic letter mark
  ['b\u043Ebby', /scripts/], // Latin with a Cyrillic о
  ['p\u0430ypal', /scripts/], // Latin with a Cyrillic а
  ['\u03B1lice', /scripts/], // Greek α with Latin
  ['Good N\u0435ighbour', /scripts/], // the second word mixes Latin and Cyrillic е
];

describe('name rules (protocol and skeleton)', () => {
  it('the skeleton folds case, width and look-alike letters, as the Unicode table says', () => {
    expect(nameSkeleton('bob')).toBe(nameSkeleton('BOB'));
    expect(nameSkeleton('\uFF42\uFF4F\uFF42')).toBe(nameSkeleton('bob')); // full-width ｂｏｂ
    expect(nameSkeleton('\u0430\u0440\u0435')).toBe(nameSkeleton('ape')); // all-Cyrillic аре
    expect(nameSkeleton('marn')).toBe(nameSkeleton('rnarn')); // m looks like rn (confusables.txt)
    expect(nameSkeleton('bob')).not.toBe(nameSkeleton('bib'));
    expect(nameSkeleton('Zoë')).not.toBe(nameSkeleton('Zoe'));
  });

  it('PlayerNameSchema accepts honest names in any script and refuses deceptive ones', () => {
    for (const name of [
      'Zoë',
      'José',
      '王小明',
      'Player 42',
      'Иван',
      'Σωκράτης',
      'こんにちは世界',
      'R2-D2',
    ]) {
      expect(PlayerNameSchema.safeParse(name).success, name).toBe(true);
    }
    for (const [name, reason] of INVALID) {
      const r = PlayerNameSchema.safeParse(name);
      expect(r.success, JSON.stringify(name)).toBe(false);
      expect(r.error?.issues.map((i) => i.message).join(' '), JSON.stringify(name)).toMatch(reason);
    }
  });
});

describeEachDatabase('player names by skeleton', (db) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await testApp(db);
  });
  afterAll(async () => {
    await app.close();
    await db.cleanup();
  });

  const post = (name: string) => app.inject({ method: 'POST', url: '/api/players', payload: { name } });

  async function create(name: string): Promise<Player> {
    const r = await post(name);
    expect(r.statusCode, r.body).toBe(201);
    return PlayerCreatedSchema.parse(r.json());
  }

  it('refuses invisible, filler, bidi-control and mixed-script names with 400 and a reason', async () => {
    for (const [name, reason] of INVALID) {
      expect(expectError(await post(name), 400, 'bad-request'), JSON.stringify(name)).toMatch(reason);
    }
  });

  it('accepts accents, CJK and digits, and stores the skeleton', async () => {
    for (const name of ['Zoë', 'José', '王小明', 'Player 42']) {
      const p = await create(name);
      const row = await app.prisma.player.findUniqueOrThrow({ where: { id: p.id } });
      expect(row.nameSkeleton).toBe(nameSkeleton(name));
    }
    // Zoe is not Zoë: the skeleton keeps accents.
    await create('Zoe');
  });

  it('refuses as taken a name that looks like another player’s (409)', async () => {
    await create('bobby');
    await create('ape');
    for (const name of ['\uFF42\uFF4F\uFF42\uFF42\uFF59', 'BOBBY', '\u0430\u0440\u0435']) {
      expect(expectError(await post(name), 409, 'conflict'), JSON.stringify(name)).toMatch(/taken/);
    }
    await create('marn');
    expectError(await post('rnarn'), 409, 'conflict');
  });

  it('rename follows the same rules; one’s own look-alike is allowed', async () => {
    const other = await create('Chloe');
    const p = await create('Renamed One');
    const patch = (name: string) =>
      app.inject({
        method: 'PATCH',
        url: '/api/me',
        headers: { authorization: `Bearer ${p.token}` },
        payload: { name },
      });
    expectError(await patch('\uFF23\uFF48\uFF4C\uFF4F\uFF45'), 409, 'conflict'); // full-width Ｃｈｌｏｅ
    expect(expectError(await patch('Ren\u200Bamed'), 400, 'bad-request')).toMatch(/invisible/);
    expect(expectError(await patch('R\u0435named'), 400, 'bad-request')).toMatch(/scripts/);
    const own = await patch('\uFF32\uFF45\uFF4E\uFF41\uFF4D\uFF45\uFF44 \uFF2F\uFF4E\uFF45'); // full-width self
    expect(own.statusCode, own.body).toBe(200);
    expect(MeSchema.parse(own.json()).name).toBe('Ｒｅｎａｍｅｄ Ｏｎｅ');
    const row = await app.prisma.player.findUniqueOrThrow({ where: { id: other.id } });
    expect(row.nameSkeleton).toBe(nameSkeleton('chloe'));
  });

  it('players named before the rule get their skeleton; a look-alike pair from before keeps one NULL', async () => {
    const legacy = (id: string, name: string) =>
      app.prisma.player.create({ data: { id, name, nameKey: name.toLowerCase(), createdAt: new Date() } });
    await legacy('legacy-a', 'Oldtimer');
    await legacy('legacy-b', '\uFF4F\uFF4C\uFF44\uFF54\uFF49\uFF4D\uFF45\uFF52'); // full-width ｏｌｄｔｉｍｅｒ
    await legacy('legacy-c', 'Grandpa');
    const r = await fillNameSkeletons(app.playerRows);
    expect(r).toEqual({ filled: 2, clashes: 1 });
    const rows = await app.prisma.player.findMany({ where: { id: { startsWith: 'legacy-' } } });
    const skeletons = rows.map((p) => p.nameSkeleton);
    expect(skeletons.filter((s) => s === nameSkeleton('oldtimer'))).toHaveLength(1);
    expect(skeletons).toContain(nameSkeleton('grandpa'));
    expect(skeletons.filter((s) => s === null)).toHaveLength(1);
    // Now taken by skeleton for newcomers.
    expectError(await post('\uFF2F\uFF2C\uFF24timer'), 409, 'conflict'); // ＯＬＤtimer: only the skeleton says so
    expect(await fillNameSkeletons(app.playerRows)).toEqual({ filled: 0, clashes: 1 });
  });
});
