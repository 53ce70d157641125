/**
 * The operator's incident command (issue 58; docs/operations.md "Incidents"), run by scripts/incident.ts:
 *
 *   pnpm incident add "Moves slow on one node" [--details "…"] [--impact major]
 *   pnpm incident resolve <id>
 *   pnpm incident list
 *
 * The status page lists the open incidents and those resolved in the last 14 days. Pure of the process:
 * the caller gives the arguments, the repository, the clock and where the lines go.
 */
import type { Incident } from '@klondike/protocol';
import { IncidentImpactSchema } from '@klondike/protocol';
import type { StatusRepository } from './repository.js';

/** The command's usage text. */
export const INCIDENT_USAGE =
  'usage: incident add <title> [--details <text>] [--impact minor|major] | incident resolve <id> | incident list';

/** A command line that cannot be run (the usage follows it). */
export class IncidentUsageError extends Error {
  override readonly name = 'IncidentUsageError';
}

/** One line per incident: id, state, impact, start, title. */
export function incidentLine(i: Incident): string {
  const state = i.resolvedAt === null ? 'OPEN' : `resolved ${i.resolvedAt}`;
  return `${i.id}  ${state}  ${i.impact}  ${i.startedAt}  ${i.title}`;
}

/** The value of `--name` in `args` (removed from them), or undefined. Errors: a flag without its value. */
function takeFlag(args: string[], name: string): string | undefined {
  const at = args.indexOf(`--${name}`);
  if (at < 0) return undefined;
  const value = args[at + 1];
  if (value === undefined) throw new IncidentUsageError(`--${name} needs a value`);
  args.splice(at, 2);
  return value;
}

/**
 * Runs one incident command. Errors: `IncidentUsageError` for a bad command line or an unknown id; the
 * repository's errors as they are.
 */
export async function runIncidentCommand(
  argv: readonly string[],
  repository: StatusRepository,
  now: () => number,
  print: (line: string) => void,
): Promise<void> {
  const args = argv.filter((a) => a !== '--');
  const command = args.shift();
  if (command === 'add') {
    const details = takeFlag(args, 'details') ?? null;
    const impact = IncidentImpactSchema.safeParse(takeFlag(args, 'impact') ?? 'minor');
    if (!impact.success) throw new IncidentUsageError('--impact is minor or major');
    const title = args.join(' ').trim();
    if (title.length === 0 || title.length > 200)
      throw new IncidentUsageError('a title of 1 to 200 characters');
    if (details !== null && details.length > 2000)
      throw new IncidentUsageError('details of 2000 characters at most');
    print(
      incidentLine(await repository.addIncident({ title, details, impact: impact.data }, new Date(now()))),
    );
  } else if (command === 'resolve') {
    const id = args[0];
    if (id === undefined || args.length !== 1) throw new IncidentUsageError('resolve takes one incident id');
    const resolved = await repository.resolveIncident(id, new Date(now()));
    if (resolved === null) throw new IncidentUsageError(`no incident ${id}`);
    print(incidentLine(resolved));
  } else if (command === 'list') {
    for (const i of await repository.incidents()) print(incidentLine(i));
  } else throw new IncidentUsageError(command === undefined ? 'no command' : `unknown command ${command}`);
}
