/**
 * A display name checked in the browser the way the server checks it (the protocol's PlayerNameSchema), for
 * the sign-up and rename form. A module of its own so that only the player dialog (loaded on demand) brings
 * zod in.
 */
import { PlayerNameSchema } from '@klondike/protocol';

/** Checks a display name the way the server does; the first problem in words, or null when fine. */
export function nameProblem(name: string): string | null {
  const t = name.trim();
  if (t.length === 0) return 'Choose a name.';
  if (t.length < 3) return 'At least 3 characters.';
  if (t.length > 20) return 'At most 20 characters.';
  if (/\s{2,}/.test(t)) return 'Only single spaces between words.';
  return PlayerNameSchema.safeParse(t).success ? null : 'Letters, digits, _ . - and single spaces only.';
}
