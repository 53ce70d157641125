/**
 * The operator's incident command (src/features/status/incident-command.ts) on the configured database
 * (DATABASE_URL, else the embedded one under DATA_DIR: stop the node first, PGlite has one user at a time):
 *
 *   pnpm incident add "Moves slow on one node" [--details "…"] [--impact major]
 *   pnpm incident resolve <id>
 *   pnpm incident list
 */
import { loadConfig } from '../src/edge/config.js';
import { databaseTarget } from '../src/edge/plugins/db.js';
import { openDatabase } from '../src/infra/db/database.js';
import {
  INCIDENT_USAGE,
  IncidentUsageError,
  runIncidentCommand,
} from '../src/features/status/incident-command.js';
import { StatusRepository } from '../src/features/status/repository.js';

const db = await openDatabase(databaseTarget(loadConfig(process.env)));
try {
  await runIncidentCommand(process.argv.slice(2), new StatusRepository(db.prisma), Date.now, (line) =>
    console.log(line),
  );
} catch (e) {
  if (!(e instanceof IncidentUsageError)) throw e;
  console.error(`${e.message}\n${INCIDENT_USAGE}`);
  process.exitCode = 2;
} finally {
  await db.close();
}
