/**
 * The JSON text of one game's `state` frames, reusing the text of the parts of the view that the last move
 * left as they were.
 *
 * A move changes a few piles at most: a draw or a redeal (most moves of a game) changes the stock and the
 * waste and no tableau pile, and the game's options never change. Serialising the whole frame again after
 * every move wrote those unchanged parts each time: the options and the seven tableau piles are about half of
 * a frame's ~0.8 KB. The rules' states are immutable and share what a move did not change (the tableau array
 * itself after a draw, each pile a move did not touch), so a part of the state that is the same object as at
 * the last frame has the same view, and its text can be reused.
 *
 * Only view objects are ever serialised here (the state is used as the cache's key, by identity, and never
 * written): what a frame can show is still exactly what `playerView` builds.
 */
import type { ServerFrame } from '@klondike/protocol';
import type { GameState, TableauPile } from '@klondike/rules';
import type { WireView } from './policies.js';

/** A `state` frame as the server sends it. */
export type StateFrame = ServerFrame & { type: 'state' };

/**
 * One game's `state` frame writer (one per room). `text` returns a JSON text that parses to the frame
 * (`JSON.parse(text)` deep-equals `JSON.parse(JSON.stringify(frame))`; the view comes last), written in
 * ~70 % of the time `JSON.stringify` takes when only the stock and the waste changed. Memory: the text of
 * the options and of each tableau pile (~0.5 KB a game) and references to the state's parts they came from.
 */
export class StateFrameText {
  private options: GameState['options'] | null = null;
  private optionsText = '';
  private tableau: GameState['tableau'] | null = null;
  private tableauText = '';
  private readonly piles: (TableauPile | undefined)[] = [];
  private readonly pileTexts: string[] = [];

  /**
   * The frame's text, `requestId` added when given (the mover's copy). `frame.view` must be the view of
   * `state` (`playerView(state, …)`): its options and tableau are taken from the text of an earlier frame
   * when `state` shares them with that frame's state.
   */
  text(frame: StateFrame, state: GameState, requestId?: string): string {
    const { view, ...head } = frame;
    if (requestId !== undefined) head.requestId = requestId;
    const { options, tableau, ...rest } = view;
    const headText = JSON.stringify(head);
    return (
      headText.slice(0, -1) +
      ',"view":{"options":' +
      this.optionsOf(state, options) +
      ',"tableau":' +
      this.tableauOf(state, tableau) +
      ',' +
      JSON.stringify(rest).slice(1) +
      '}'
    );
  }

  private optionsOf(state: GameState, options: WireView['options']): string {
    if (state.options !== this.options) {
      this.options = state.options;
      this.optionsText = JSON.stringify(options);
    }
    return this.optionsText;
  }

  private tableauOf(state: GameState, tableau: WireView['tableau']): string {
    if (state.tableau === this.tableau) return this.tableauText;
    let text = '[';
    for (let i = 0; i < tableau.length; i++) {
      const pile = state.tableau[i];
      if (pile === undefined || pile !== this.piles[i]) {
        this.piles[i] = pile;
        this.pileTexts[i] = JSON.stringify(tableau[i]);
      }
      text += (i === 0 ? '' : ',') + this.pileTexts[i];
    }
    this.tableau = state.tableau;
    this.tableauText = text + ']';
    return this.tableauText;
  }
}
