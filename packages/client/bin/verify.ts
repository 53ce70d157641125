#!/usr/bin/env node
/**
 * Checks a closed daily, or a finished race, end to end from a server's public answers (src/verify.ts,
 * src/verify-race.ts, docs/fairness.md):
 *
 *   pnpm verify -- --server http://localhost:3000 --date 2025-03-10 --preset classic-draw1 [--commitment HEX]
 *   pnpm verify -- --server http://localhost:3000 --race CODE [--commitment HEX]
 *
 * `--commitment` is the commitment you saw before the day opened (the daily page shows it; GET /api/daily
 * lists tomorrow's) or before the race started (the room shows it); without it, the archive's (a daily) or
 * the room's own (a race) is compared. Prints one line per check (`ok` or `FAIL`, its name, what was
 * compared) and exits 0 only when every check passed, 1 otherwise (2 for a bad command line).
 */
import { RaceCodeSchema } from '@klondike/protocol';
import { verifyDaily, verifyRace } from '../src/verify.js';

interface Args {
  server: string;
  date: string | undefined;
  preset: string | undefined;
  race: string | undefined;
  commitment: string | undefined;
}

const USAGE =
  'use --server URL --date YYYY-MM-DD --preset classic-draw1|classic-draw3 [--commitment HEX], ' +
  'or --server URL --race CODE [--commitment HEX]';

function parseArgs(argv: string[]): Args {
  const out: Args = {
    server: 'http://localhost:3000',
    date: undefined,
    preset: undefined,
    race: undefined,
    commitment: undefined,
  };
  const rest = argv.filter((a) => a !== '--'); // pnpm passes the separator through
  for (let i = 0; i < rest.length; i += 2) {
    const [key, value] = [rest[i], rest[i + 1]];
    if (value === undefined) throw new Error(`${key} needs a value (${USAGE})`);
    if (key === '--server') out.server = value;
    else if (key === '--date') out.date = value;
    else if (key === '--preset') out.preset = value;
    else if (key === '--race') out.race = value;
    else if (key === '--commitment') out.commitment = value;
    else throw new Error(`unknown option ${key} (${USAGE})`);
  }
  if (out.commitment !== undefined && !/^[0-9a-fA-F]{64}$/.test(out.commitment))
    throw new Error('--commitment must be 64 hex characters');
  if (out.race !== undefined) {
    if (out.date !== undefined || out.preset !== undefined)
      throw new Error(`--race goes without --date and --preset (${USAGE})`);
    if (!RaceCodeSchema.safeParse(out.race).success) throw new Error(`--race: not a race code (${USAGE})`);
    return out;
  }
  if (out.date === undefined || !/^\d{4}-\d{2}-\d{2}$/.test(out.date)) throw new Error(`--date: ${USAGE}`);
  if (out.preset === undefined) throw new Error(`--preset: ${USAGE}`);
  return out;
}

let args: Args;
try {
  args = parseArgs(process.argv.slice(2));
} catch (e) {
  console.error((e as Error).message);
  process.exit(2);
}
const commitment = args.commitment !== undefined ? { commitment: args.commitment } : {};
const report =
  args.race !== undefined
    ? await verifyRace({ server: args.server, code: args.race, ...commitment })
    : await verifyDaily({
        server: args.server,
        date: args.date ?? '',
        preset: args.preset ?? '',
        ...commitment,
      });
for (const c of report.checks) console.log(`${c.ok ? 'ok  ' : 'FAIL'} ${c.check}: ${c.detail}`);
console.log(report.ok ? 'verified: every check passed' : 'NOT verified: a check failed');
process.exit(report.ok ? 0 : 1);
