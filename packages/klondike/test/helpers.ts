/** Test-only builders: positions written in card codes. */
import {
  type Card,
  type GameOptions,
  type GameState,
  type PresetName,
  parseCard,
  resolveOptions,
} from '../src/index.js';

/** Engine card of a code; throws on a typo (tests only). */
export function c(code: string): Card {
  const card = parseCard(code);
  if (card === undefined) throw new Error(`bad card ${code}`);
  return card;
}

/** A pile written as `"XX XX | YY YY"`: codes before `|` face down, after it face up. */
function pile(text: string): { cards: Card[]; faceDown: number } {
  const [down, up] = text.includes('|') ? text.split('|') : ['', text];
  const d = (down ?? '').trim().split(/\s+/).filter(Boolean).map(c);
  const u = (up ?? '').trim().split(/\s+/).filter(Boolean).map(c);
  return { cards: [...d, ...u], faceDown: d.length };
}

/** Describes a position for `position()`. Stock and waste are written bottom first (last = top). */
export interface PositionSpec {
  tableau?: string[];
  foundations?: [number, number, number, number];
  stock?: string;
  waste?: string;
  preset?: PresetName;
  options?: Partial<GameOptions>;
  score?: number;
  recycles?: number;
  lastPass?: boolean;
}

const codes = (t: string | undefined): Card[] => (t ?? '').trim().split(/\s+/).filter(Boolean).map(c);

/** Builds a GameState directly (cards need not total 52: rules only look at what is there). */
export function position(spec: PositionSpec): GameState {
  const tableau = Array.from({ length: 7 }, (_, i) => pile(spec.tableau?.[i] ?? ''));
  return {
    options: resolveOptions(spec.preset ?? 'classic-draw1', spec.options ?? {}),
    deal: [],
    tableau,
    foundations: spec.foundations ?? [0, 0, 0, 0],
    stock: codes(spec.stock),
    waste: codes(spec.waste),
    recycles: spec.recycles ?? 0,
    lastPass: spec.lastPass ?? false,
    score: spec.score ?? 0,
    moves: 0,
    resigned: false,
    history: null,
  };
}

export { makeView, type ViewSpec } from '../src/testing.js';
