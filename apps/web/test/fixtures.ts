/** PlayerView fixtures for the unit tests. */
import { PRESETS, type CardCode, type PlayerView, type PresetName } from '@klondike/rules';

export interface ViewSpec {
  tableau?: Array<[number, CardCode[]]>;
  foundations?: Partial<Record<'fC' | 'fD' | 'fH' | 'fS', CardCode | null>>;
  stock?: number;
  waste?: CardCode[];
  preset?: PresetName;
  status?: PlayerView['status'];
  redealsLeft?: number | null;
  /** R16; default: `available` when the preset has the last pass, else `none`. */
  lastPass?: PlayerView['lastPass'];
}

/** A view; missing tableau piles are empty. */
export function makeView(spec: ViewSpec = {}): PlayerView {
  const tableau = Array.from({ length: 7 }, (_, i) => {
    const t = spec.tableau?.[i] ?? [0, []];
    return { faceDown: t[0], faceUp: t[1] };
  });
  const options = PRESETS[spec.preset ?? 'classic-draw1'];
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
