// Types of the parts of the `glicko2` package (mmai/glicko2js, plain JavaScript) that ratings/glicko2.ts uses.
declare module 'glicko2' {
  /** A player of one Glicko2 instance: values on the Glicko scale (rating 1500-based, deviation in points). */
  export interface Glicko2Player {
    getRating(): number;
    getRd(): number;
    getVol(): number;
  }
  /** Settings: τ, and the defaults of a new player. */
  export interface Glicko2Settings {
    tau?: number;
    rating?: number;
    rd?: number;
    vol?: number;
  }
  /** One rating period's calculator. */
  export class Glicko2 {
    constructor(settings?: Glicko2Settings);
    makePlayer(rating?: number, rd?: number, vol?: number): Glicko2Player;
    /** Records a game of the period: `outcome` 1 = player1 won, 0 = lost, between = a share. */
    addResult(player1: Glicko2Player, player2: Glicko2Player, outcome: number): void;
    /** Ends the period: every player's new rating from the period's games (Glickman's steps 3–8). */
    calculatePlayersRatings(): void;
  }
  const glicko2: { Glicko2: typeof Glicko2 };
  export default glicko2;
}
