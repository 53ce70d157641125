/**
 * Winning lines the solver already found, per game: every position along a line (keyed by the rules
 * package's `positionKey`) is winnable, and its next move is the line's next move. A hint or a "still
 * winnable?" check for a position on a known line is answered without a search: when the player follows
 * the line, goes back along it with undo, or reaches one of its positions another way. Bounded: the
 * least recently found lines are forgotten first.
 */
import { type GameState, type Move, applyMove, positionKey } from '@klondike/rules';

interface KnownLine {
  /** positionKey → index in `line` of the move to play from that position. */
  readonly at: Map<string, number>;
  readonly line: readonly Move[];
}

/** The known winning lines of many games. */
export class KnownLines {
  private readonly games = new Map<string, KnownLine>();

  /** `maxGames`: lines kept at most (one per game, the latest). */
  constructor(private readonly maxGames = 2000) {}

  /**
   * Remembers `line`, a winning line from `state` of game `gameId` (it replaces the game's earlier line).
   * A move of the line that does not apply (never, for a line the solver verified) ends the walk there.
   */
  remember(gameId: string, state: GameState, line: readonly Move[]): void {
    const at = new Map<string, number>();
    let s = state;
    for (const [i, move] of line.entries()) {
      at.set(positionKey(s), i);
      const r = applyMove(s, move);
      if (!r.ok) break;
      s = r.value;
    }
    this.games.delete(gameId);
    this.games.set(gameId, { at, line });
    if (this.games.size > this.maxGames) this.games.delete(this.games.keys().next().value as string);
  }

  /** The next move of a known winning line from `state`, with the moves left; undefined when unknown. */
  lookup(gameId: string, state: GameState): { move: Move; lineLength: number } | undefined {
    const known = this.games.get(gameId);
    if (!known) return undefined;
    const i = known.at.get(positionKey(state));
    if (i === undefined) return undefined;
    return { move: known.line[i] as Move, lineLength: known.line.length - i };
  }
}
