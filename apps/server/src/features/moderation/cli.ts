/**
 * The moderators' command line (scripts/moderator.ts; docs/moderation.md "Moderators"): `grant <playerId>`,
 * `revoke <playerId>` and `list`. Grant and revoke write the `Moderator` row and a `ModAction` by `cli`.
 * The core is here, over the repository, so that it is tested without a process.
 */
import type { ModerationRepository } from './repository.js';

/** What a command printed and its exit status (0: done; 1: refused; 2: usage). */
export interface CliResult {
  readonly status: 0 | 1 | 2;
  readonly output: string;
}

/** The usage line. */
export const MODERATOR_USAGE =
  'usage: pnpm moderator grant <playerId> [reason] | revoke <playerId> [reason] | list';

/**
 * Runs `args` (`grant|revoke <playerId> [reason…]` or `list`) against `repo` at `now` (ms). Errors (as a
 * status, never thrown): an unknown command or a missing id → 2; an unknown player, a grant of a moderator
 * or a revoke of a non-moderator → 1. Database errors are thrown.
 */
export async function moderatorCommand(
  repo: Pick<ModerationRepository, 'player' | 'grantModerator' | 'revokeModerator' | 'moderatorRows'>,
  args: readonly string[],
  now: number,
): Promise<CliResult> {
  const [command, playerId, ...words] = args;
  if (command === 'list') {
    const rows = await repo.moderatorRows();
    const lines = rows.map((r) => `${r.playerId}\tgranted ${r.grantedAt.toISOString()} by ${r.grantedBy}`);
    return { status: 0, output: lines.length > 0 ? lines.join('\n') : '(no moderator named by the CLI)' };
  }
  if ((command !== 'grant' && command !== 'revoke') || playerId === undefined || playerId === '')
    return { status: 2, output: MODERATOR_USAGE };
  const player = await repo.player(playerId);
  if (player === null) return { status: 1, output: `no player ${playerId}` };
  const actor = {
    moderatorId: 'cli',
    reason: words.length > 0 ? words.join(' ') : `${command} from the command line`,
    at: new Date(now),
  };
  if (command === 'grant')
    return (await repo.grantModerator(playerId, actor))
      ? { status: 0, output: `${player.name} (${playerId}) is now a moderator` }
      : { status: 1, output: `${player.name} (${playerId}) is a moderator already` };
  return (await repo.revokeModerator(playerId, actor))
    ? { status: 0, output: `${player.name} (${playerId}) is no longer a moderator` }
    : { status: 1, output: `${player.name} (${playerId}) is not a moderator named by the CLI` };
}
