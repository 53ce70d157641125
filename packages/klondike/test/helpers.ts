/** Test-only builders: positions written in card codes. */
import {
  type CardCode,
  type FoundationPileId,
  type PlayerView,
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

/** Describes a player view for `makeView`: tableau piles as `[faceDown, faceUp codes]`, missing ones empty. */
export interface ViewSpec {
  tableau?: Array<[number, CardCode[]]>;
  foundations?: Partial<Record<FoundationPileId, CardCode | null>>;
  stock?: number;
  waste?: CardCode[];
  preset?: PresetName;
  status?: PlayerView['status'];
  redealsLeft?: number | null;
  /** R16; default: `available` when the preset has the last pass, else `none`. */
  lastPass?: PlayerView['lastPass'];
}

/** A hand-made player view (it need not hide exactly the cards it does not show). */
export function makeView(spec: ViewSpec = {}): PlayerView {
  const tableau = Array.from({ length: 7 }, (_, i) => {
    const t = spec.tableau?.[i] ?? [0, []];
    return { faceDown: t[0], faceUp: t[1] };
  });
  const options = resolveOptions(spec.preset ?? 'classic-draw1');
  return {
    options,
    tableau,
    foundations: { fC: null, fD: null, fH: null, fS: null, ...spec.foundations },
    stock: { count: spec.stock ?? 0 },
    waste: spec.waste ?? [],
    status: spec.status ?? 'playing',
    score: 0,
    moves: 0,
    recycles: 0,
    redealsLeft: spec.redealsLeft === undefined ? null : spec.redealsLeft,
    lastPass: spec.lastPass ?? (options.finalSinglePass ? 'available' : 'none'),
    canUndo: false,
    canAutoComplete: false,
    elapsedMs: 0,
  };
}
