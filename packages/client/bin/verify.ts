/**
 * Checks a closed daily end to end from a server's public answers (src/verify.ts, docs/fairness.md):
 *
 *   pnpm verify -- --server http://localhost:3000 --date 2025-03-10 --preset classic-draw1 [--commitment HEX]
 *
 * `--commitment` is the commitment you saw before the day opened (the daily page shows it; GET /api/daily
 * lists tomorrow's); without it, the archive's is compared. Prints one line per check (`ok` or `FAIL`, its
 * name, what was compared) and exits 0 only when every check passed, 1 otherwise (2 for a bad command line).
 */
import { verifyDaily } from '../src/verify.js';

interface Args {
  server: string;
  date: string;
  preset: string;
  commitment: string | undefined;
}

const USAGE = 'use --server URL --date YYYY-MM-DD --preset classic-draw1|classic-draw3 [--commitment HEX]';

function parseArgs(argv: string[]): Args {
  const out: Partial<Args> = { server: 'http://localhost:3000' };
  const rest = argv.filter((a) => a !== '--'); // pnpm passes the separator through
  for (let i = 0; i < rest.length; i += 2) {
    const [key, value] = [rest[i], rest[i + 1]];
    if (value === undefined) throw new Error(`${key} needs a value (${USAGE})`);
    if (key === '--server') out.server = value;
    else if (key === '--date') out.date = value;
    else if (key === '--preset') out.preset = value;
    else if (key === '--commitment') out.commitment = value;
    else throw new Error(`unknown option ${key} (${USAGE})`);
  }
  if (out.date === undefined || !/^\d{4}-\d{2}-\d{2}$/.test(out.date)) throw new Error(`--date: ${USAGE}`);
  if (out.preset === undefined) throw new Error(`--preset: ${USAGE}`);
  if (out.commitment !== undefined && !/^[0-9a-fA-F]{64}$/.test(out.commitment))
    throw new Error('--commitment must be 64 hex characters');
  return { server: out.server ?? '', date: out.date, preset: out.preset, commitment: out.commitment };
}

let args: Args;
try {
  args = parseArgs(process.argv.slice(2));
} catch (e) {
  console.error((e as Error).message);
  process.exit(2);
}
const report = await verifyDaily({
  server: args.server,
  date: args.date,
  preset: args.preset,
  ...(args.commitment !== undefined ? { commitment: args.commitment } : {}),
});
for (const c of report.checks) console.log(`${c.ok ? 'ok  ' : 'FAIL'} ${c.check}: ${c.detail}`);
console.log(report.ok ? 'verified: every check passed' : 'NOT verified: a check failed');
process.exit(report.ok ? 0 : 1);
