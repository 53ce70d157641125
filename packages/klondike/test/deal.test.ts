import { chacha20 } from '@noble/ciphers/chacha.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CARD_CODES,
  MAX_DEAL_NUMBER,
  dealFromKey,
  dealFromNumber,
  keyedDealRandom,
  formatDeal,
  newGame,
  parseDeal,
  playerView,
  resolveOptions,
  splitMix64,
  xoshiro128ss,
} from '../src/index.js';

const GOLDEN: Record<number, string> = {
  1: '8D QD JD 3S 8C 2C JC AD TS 9D 7C 7S 3D KS 2D 6C 5C JH QH TC 9S 3H 4C 2H TH 9C JS 9H 5H KD AH 4D 6H 7H QS 5D 4H QC 6D KH 8S 2S 4S 8H AC AS KC TD 7D 5S 6S 3C',
  2: '6S KS 7H 7D 8H 7S AD AC TC AH JD 8D 6D 4S KH 8S 3H 8C 9H TD 3D 9S 5C 2S 5S 2C 6H 9D 2D 3S 5D JS 7C KC 9C JH KD 4C 4D TH 2H 6C TS 5H QH QC AS QD 4H JC 3C QS',
  617: '6D 2S 4D 5H 5S QS 7D 9D 9C 7H 8C 3S AC TH JH 7C 6H AD KC JC JD 4S 3D 3C 8D 2C 4C 9S KH TS 5C AH TD 8S 7S 2D KS 5D QH JS KD 6S QD 6C 3H QC AS 4H 8H 9H TC 2H',
  11982:
    'KC 7C JD JH KH 5D 5H 9H 9D 8D TS 2H 9C 3D TH QC 8H TC 9S 2D 4S JS 5S 7D 2S 4H 8S 6H 4D QS KD KS AH 4C 6D 3H JC 7H 3S 8C 7S 2C 6S QH TD AD 5C 3C AS QD 6C AC',
  4294967295:
    '7C 9C AC AD 6C 9S 6D 8C 8H 4D 4S JD 7S 2C 3D QS 6S TS 8S 4H AS 8D 5S AH 2D 5H QH 9D 5D 5C 3H 7D 3S JH QC 9H JC 3C TH KD KH QD TD 2S TC KC 6H 4C 2H KS 7H JS',
};

describe('R2 seeded deals, algorithm version 1', () => {
  it('SplitMix64 matches its published reference outputs', () => {
    const a = splitMix64(0n);
    expect([a(), a()]).toEqual([0xe220a8397b1dcdafn, 0x6e789e6aa1b965f4n]);
    const b = splitMix64(1234567n);
    expect([b(), b()]).toEqual([6457827717110365317n, 3203168211198807973n]);
  });

  it('xoshiro128** matches its published reference outputs for state {1,2,3,4}', () => {
    const next = xoshiro128ss(1, 2, 3, 4);
    expect([next(), next(), next(), next(), next()]).toEqual([11520, 0, 5927040, 70819200, 2031721883]);
  });

  for (const [n, text] of Object.entries(GOLDEN)) {
    it(`R2: deal number ${n} is pinned (golden)`, () => {
      const r = dealFromNumber(Number(n));
      expect(r.ok && formatDeal(r.value)).toBe(text);
    });
  }

  it('R1/R2: every deal number gives 52 distinct cards', () => {
    for (const n of [1, 3, 99, 123456, MAX_DEAL_NUMBER]) {
      const r = dealFromNumber(n);
      expect(r.ok).toBe(true);
      if (r.ok) expect(new Set(r.value).size).toBe(52);
    }
  });

  it('R2: deal numbers outside 1..2^32-1 are refused with a typed error', () => {
    for (const n of [0, -1, 1.5, MAX_DEAL_NUMBER + 1, Number.NaN]) {
      const r = dealFromNumber(n);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.code).toBe('bad-deal-number');
    }
  });

  it('R2: cards 1-28 go cross-wise to the tableau, top of each pile face up; 29-52 form the stock, 29 drawn first', () => {
    const deal = parseDeal(CARD_CODES.join(' '));
    expect(deal.ok).toBe(true);
    if (!deal.ok) return;
    const state = newGame(deal.value, resolveOptions('classic-draw1'));
    // Pile p (0-based) gets card p in round 0, then card 7+(p-1) in round 1, ...
    expect(state.tableau.map((p) => p.cards.length)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(state.tableau.map((p) => p.faceDown)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    const view = playerView(state, 0);
    // The ordered pack: cards 1-13 clubs, 14-26 diamonds, 27-39 hearts, 40-52 spades.
    // Pile 1 = card 1 (AC); pile 2 = cards 2, 8 (2C, 8C); pile 3's top = card 14 (AD); pile 7 = cards 7, 13, 18, 22, 25, 27, 28.
    expect(view.tableau[0]?.faceUp).toEqual(['AC']);
    expect(state.tableau[1]?.cards.map((c) => CARD_CODES[c])).toEqual(['2C', '8C']);
    expect(view.tableau[2]?.faceUp).toEqual(['AD']);
    expect(state.tableau[6]?.cards.map((c) => CARD_CODES[c])).toEqual([
      '7C',
      'KC',
      '5D',
      '9D',
      'QD',
      'AH',
      '2H',
    ]);
    expect(view.tableau[6]?.faceUp).toEqual(['2H']);
    expect(view.stock.count).toBe(24);
    // Card 29 (3H) is on top of the stock: drawn first.
    expect(CARD_CODES[state.stock[state.stock.length - 1] as number]).toBe('3H');
    expect(CARD_CODES[state.stock[0] as number]).toBe('KS');
    expect(view.waste).toEqual([]);
    expect(view.foundations).toEqual({ fC: null, fD: null, fH: null, fS: null });
  });

  it('parses and formats the notation; refuses wrong counts, unknown codes and duplicates', () => {
    const text = GOLDEN[617] as string;
    const r = parseDeal(`  ${text.replace(/ /g, '\n')} `);
    expect(r.ok && formatDeal(r.value)).toBe(text);
    const bad = [
      text.split(' ').slice(1).join(' '),
      text.replace('6D', '1D'),
      text.replace('6D', '2S'),
      text.toLowerCase(),
      '',
    ];
    for (const b of bad) {
      const e = parseDeal(b);
      expect(e.ok).toBe(false);
      if (!e.ok) expect(e.error.code).toBe('bad-deal');
    }
  });
});

const hexKey = (h: string): Uint8Array => Uint8Array.from(h.match(/../g) ?? [], (b) => parseInt(b, 16));

describe('R2 keyed deals, algorithm version 2', () => {
  it('the stream is ChaCha20 (RFC 8439 appendix A.1 test vector #1: zero key, zero nonce, blocks 0 and 1)', () => {
    const next = keyedDealRandom(new Uint8Array(32));
    const words = Array.from({ length: 17 }, () => next());
    // Key stream bytes 76 b8 e0 ad a0 f1 3d 90 … read as little-endian words; word 16 starts block 1 (9f 07 e7 be).
    expect(words.slice(0, 4)).toEqual([0xade0b876, 0x903df1a0, 0xe56a5d40, 0x28bd8653]);
    expect(words[16]).toBe(0xbee7079f);
  });

  it('the stream continues across chunks exactly as one long ChaCha20 key stream', () => {
    const key = hexKey('000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f');
    const next = keyedDealRandom(key);
    const mine = Array.from({ length: 300 }, () => next());
    const bytes = chacha20(key, new Uint8Array(12), new Uint8Array(1200));
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    expect(mine).toEqual(Array.from({ length: 300 }, (_, i) => view.getUint32(i * 4, true)));
  });

  const vectors = [
    [
      '00'.repeat(32),
      '5C 6H JS 5S QS 8C 2H KH 7H KS 8D QD 4C 5D AC 9D AS 9S JC TH KC 2D TS 3H TD 3S QH 2S TC 4D 7D JH 4S 6D 9H JD QC 3D 8H AH 6S KD 8S 5H 6C 9C AD 4H 2C 3C 7S 7C',
    ],
    [
      '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f',
      '2H 6C 5D KC AD 7C 6S QC 8C TS 5S 5H JH KH 7S AC 4D 8S 2D 3H KS 9D JC 6H KD 7D TC 9S 6D 5C 4S QD 3S 8H 4C 8D JD 9C QS 4H 2S JS 7H 3D 3C 9H TD AH AS QH TH 2C',
    ],
    [
      'ff'.repeat(32),
      '6S 7D AH 5H AC 8S 6H 6C KS 3D 9H 9S 9C 3S 8C KC 9D AD 4H 4C QS 5C 3C 4S TS KD AS 2S 8D 7S QD JH 5S 5D 2C TH 7H QC 8H JS TD 2D TC 7C 3H 2H JD JC 4D KH QH 6D',
    ],
  ] as const;
  for (const [key, deal] of vectors) {
    it(`R2: the deal of key ${key.slice(0, 8)}… is pinned (test vector, README)`, () => {
      const r = dealFromKey(hexKey(key));
      expect(r.ok && formatDeal(r.value)).toBe(deal);
    });
  }

  it('R1/R2: every key gives 52 distinct cards; a key of the wrong length is refused with a typed error', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (key) => {
        const r = dealFromKey(key);
        return r.ok && new Set(r.value).size === 52;
      }),
      { numRuns: 200 },
    );
    for (const n of [0, 16, 31, 33]) {
      const r = dealFromKey(new Uint8Array(n));
      expect(!r.ok && r.error.code).toBe('bad-deal-key');
    }
  });
});
