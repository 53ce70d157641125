/**
 * The screen-reader table (loaded on demand, never with the first page): the position in words, the typed
 * move commands, the verbosity, and the details added to a move's announcement. Pure but for the verbosity
 * (localStorage `klondike.verbosity`). Texts are the `a11y` message section (src/i18n), which
 * `loadA11y()` fetches. docs/accessibility.md describes the keys and commands.
 */
import {
  FOUNDATION_PILES,
  TABLEAU_PILES,
  foundationMove,
  isLegalViewMove,
  resolveCount,
  stockMove,
  tableauIndex,
  type CardCode,
  type Move,
  type PileId,
  type PlayerView,
} from '@klondike/rules';
import { loadMessageSection, tr } from '../i18n';
import { cardName, suitName } from './cards';

/** How much is said after each move: the move only, with the card turned up, or with the stock and waste too. */
export type Verbosity = 'brief' | 'normal' | 'full';
/** Every verbosity, least first. */
export const VERBOSITIES: readonly Verbosity[] = ['brief', 'normal', 'full'];
const VERBOSITY_KEY = 'klondike.verbosity';

/** The player's verbosity on this browser (default `normal`). */
export function verbosity(): Verbosity {
  try {
    const v = localStorage.getItem(VERBOSITY_KEY);
    return (VERBOSITIES as readonly string[]).includes(v ?? '') ? (v as Verbosity) : 'normal';
  } catch {
    return 'normal';
  }
}

/** Keeps `v` as this browser's verbosity. */
export function setVerbosity(v: Verbosity): void {
  try {
    localStorage.setItem(VERBOSITY_KEY, v);
  } catch {
    /* private mode: this tab only is not kept either; the default stays */
  }
}

/** Fetches the `a11y` message section (resolves at once when it is here). */
export function loadA11y(): Promise<void> {
  return loadMessageSection('a11y');
}

/** The piles in the order the arrow keys walk them: stock, waste, the four foundations, tableau 1–7. */
export const PILE_ORDER: readonly PileId[] = ['stock', 'waste', ...FOUNDATION_PILES, ...TABLEAU_PILES];

const list = (cards: readonly CardCode[]) => cards.map(cardName).join(', ');

/**
 * One pile in words, e.g. "Tableau 3: 4 face down, then 9 of hearts, 8 of spades" (bottom to top), "Waste:
 * 5 cards, 7 of clubs on top", "Foundation hearts: up to 5 of hearts", "Stock: 12 cards".
 */
export function describePile(view: PlayerView, pile: PileId): string {
  const t = tableauIndex(pile);
  if (t >= 0) {
    const p = view.tableau[t];
    const n = t + 1;
    if (!p || (p.faceDown === 0 && p.faceUp.length === 0)) return tr('a11y.pile.tableauEmpty', { n });
    if (p.faceDown === 0) return tr('a11y.pile.tableauUp', { n, cards: list(p.faceUp) });
    return tr('a11y.pile.tableau', { n, down: p.faceDown, cards: list(p.faceUp) });
  }
  if (pile === 'stock') return tr('a11y.pile.stock', {}, view.stock.count);
  if (pile === 'waste') {
    const top = view.waste[view.waste.length - 1];
    return top
      ? tr('a11y.pile.waste', { top: cardName(top), n: view.waste.length }, view.waste.length)
      : tr('a11y.pile.wasteEmpty');
  }
  const suit = suitName(pile.slice(1) as 'C' | 'D' | 'H' | 'S');
  const top = view.foundations[pile as (typeof FOUNDATION_PILES)[number]];
  return top
    ? tr('a11y.pile.foundation', { suit, top: cardName(top) })
    : tr('a11y.pile.foundationEmpty', { suit });
}

/** The whole position: every pile in `PILE_ORDER`, one sentence each. */
export function describeTable(view: PlayerView): string {
  return PILE_ORDER.map((p) => describePile(view, p)).join('. ');
}

/** The face-up card at `index` of a pile in words, with its place ("card 2 of 3: 8 of spades"). */
export function describeCard(view: PlayerView, pile: PileId, index: number): string {
  const t = tableauIndex(pile);
  const cards = t >= 0 ? (view.tableau[t]?.faceUp ?? []) : [];
  const c = cards[index];
  return c ? tr('a11y.card', { i: index + 1, n: cards.length, card: cardName(c) }) : describePile(view, pile);
}

/**
 * What follows a move's own sentence at the player's verbosity: the card it turned up (`normal`, `full`),
 * then the stock and the waste's top card (`full`). Empty when there is nothing to add.
 */
export function moveDetail(
  move: Move,
  before: PlayerView | null,
  after: PlayerView,
  level = verbosity(),
): string {
  const out: string[] = [];
  if (level === 'brief' || !before) return '';
  if (move.type === 'move') {
    const t = tableauIndex(move.from);
    const was = before.tableau[t];
    const now = after.tableau[t];
    const up = now?.faceUp[0];
    if (t >= 0 && was && now && now.faceDown < was.faceDown && up)
      out.push(tr('a11y.turnedUp', { card: cardName(up) }));
  }
  if (level === 'full') {
    const top = after.waste[after.waste.length - 1];
    out.push(
      top
        ? tr('a11y.stockWaste', { n: after.stock.count, top: cardName(top) })
        : tr('a11y.stockNoWaste', { n: after.stock.count }),
    );
  }
  return out.join(' ');
}

/** Said when the keyboard picks up from `pile`: the pile, then how to put it down. */
export function pickedUpText(view: PlayerView, pile: PileId): string {
  return tr('a11y.pickedUp', { pile: describePile(view, pile) });
}

/** Said when the picked-up cards are put back. */
export function putDownText(): string {
  return tr('a11y.putDown');
}

/** A typed command, read: a move to ask for, a pile (or the table) to describe, or why it is not one. */
export type Command =
  | { readonly kind: 'move'; readonly move: Move }
  | { readonly kind: 'say'; readonly pile: PileId | null }
  | { readonly kind: 'verbosity'; readonly level: Verbosity }
  | { readonly kind: 'help' }
  | { readonly kind: 'error'; readonly message: string };

/** A pile as typed: `t3` or `3`, `w`/`waste`, `s`/`stock`, `fH` (a foundation) or `f` (the card's own, as target). */
function readPile(token: string): PileId | 'f' | null {
  const t = token.toLowerCase();
  if (/^t?[1-7]$/.test(t)) return `t${t.slice(-1)}` as PileId;
  if (t === 'w' || t === 'waste') return 'waste';
  if (t === 's' || t === 'stock') return 'stock';
  if (t === 'f') return 'f';
  if (/^f[cdhs]$/.test(t)) return `f${t[1]?.toUpperCase()}` as PileId;
  return null;
}

/**
 * Reads a typed command against `view` (docs/accessibility.md): `d`/`draw` draws (or turns the waste over
 * when the stock is empty), `r`/`recycle`, `l`/`last-pass` (R16); `<from> <to> [count]` or the public notation
 * `t3>fH`, `t2>t5x3` moves (`to` = `f`: the card's foundation; no count: the run that fits); `p [pile]` says
 * a pile, or the whole table; `v brief|normal|full` sets the verbosity; `?`/`help` lists the commands. An
 * illegal move is an `error` with the reason (nothing is sent).
 */
export function readCommand(text: string, view: PlayerView | null): Command {
  const words = text
    .trim()
    .replace(/^(\S+?)>(\S+?)(?:x(\d+))?$/i, '$1 $2 $3')
    .split(/\s+/)
    .filter((w) => w.length > 0);
  const [head = '', ...rest] = words.map((w) => w.toLowerCase());
  if (head === '' || head === '?' || head === 'help') return { kind: 'help' };
  if (head === 'p' || head === 'say') {
    if (rest.length === 0) return { kind: 'say', pile: null };
    const pile = readPile(rest[0] ?? '');
    return pile && pile !== 'f'
      ? { kind: 'say', pile }
      : { kind: 'error', message: tr('a11y.cmd.noPile', { pile: rest[0] }) };
  }
  if (head === 'v' || head === 'verbosity') {
    const level = VERBOSITIES.find((l) => l === rest[0]);
    return level ? { kind: 'verbosity', level } : { kind: 'error', message: tr('a11y.cmd.verbosity') };
  }
  if (!view) return { kind: 'error', message: tr('a11y.cmd.noGame') };
  if (view.status !== 'playing') return { kind: 'error', message: tr('a11y.cmd.over') };
  const asMove = (move: Move | null, why: string): Command =>
    move && isLegalViewMove(view, move) ? { kind: 'move', move } : { kind: 'error', message: why };
  if (head === 'd' || head === 'draw') return asMove(stockMove(view), tr('a11y.cmd.noDraw'));
  if (head === 'r' || head === 'recycle') return asMove({ type: 'recycle' }, tr('a11y.cmd.noRecycle'));
  if (head === 'l' || head === 'last-pass') return asMove({ type: 'last-pass' }, tr('a11y.cmd.noLastPass'));
  const from = readPile(head);
  const to = readPile(rest[0] ?? '');
  if (!from || from === 'f' || from === 'stock')
    return { kind: 'error', message: tr('a11y.cmd.unknown', { text }) };
  if (!to || to === 'stock' || to === 'waste') return { kind: 'error', message: tr('a11y.cmd.noTarget') };
  if (to === 'f') return asMove(foundationMove(view, from), tr('a11y.cmd.noFoundation'));
  const typed = rest[1] !== undefined ? Number(rest[1]) : null;
  const count = typed ?? resolveCount(view, from, to);
  if (count === null || !Number.isInteger(count) || count < 1)
    return { kind: 'error', message: tr('a11y.cmd.cannot') };
  return asMove({ type: 'move', from, to, count }, tr('a11y.cmd.cannot'));
}

/** A move in the command notation (`d`, `r`, `l`, `t3 fH`, `t2 t5 3`): what `readCommand` reads back. */
export function commandOf(move: Move): string {
  if (move.type === 'draw') return 'd';
  if (move.type === 'recycle') return 'r';
  if (move.type === 'last-pass') return 'l';
  return `${move.from} ${move.to}${move.count > 1 ? ` ${move.count}` : ''}`;
}
