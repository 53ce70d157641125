/**
 * Types of the `unicode-confusables` package (its own declaration file is shipped under a name TypeScript
 * does not find). Only what players.ts uses.
 */
declare module 'unicode-confusables' {
  /** The library: Unicode TS #39 confusables.txt applied code point by code point. */
  const confusables: {
    /** Replaces each code point by its TS #39 prototype (zero-width characters removed). */
    rectifyConfusion(input: string): string;
  };
  export default confusables;
}
