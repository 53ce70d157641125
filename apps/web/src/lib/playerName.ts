/**
 * A display name checked in the browser the way the server checks it (the protocol's PlayerNameSchema), for
 * the sign-up and rename form. A module of its own so that only the player dialog (loaded on demand) brings
 * zod in.
 */
import { PlayerNameSchema } from '@klondike/protocol';
import { tr } from '../i18n';

/** Checks a display name the way the server does; the first problem in words (current language), or null when fine. */
export function nameProblem(name: string): string | null {
  const t = name.trim();
  if (t.length === 0) return tr('player.problem.empty');
  if (t.length < 3) return tr('player.problem.short');
  if (t.length > 20) return tr('player.problem.long');
  if (/\s{2,}/.test(t)) return tr('player.problem.spaces');
  return PlayerNameSchema.safeParse(t).success ? null : tr('player.problem.chars');
}
