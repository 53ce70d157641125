/**
 * `pnpm moderator grant|revoke <playerId> [reason] | list` (docs/moderation.md "Moderators"): names or
 * un-names a moderator in the database the server uses (DATABASE_URL, else the embedded database under
 * DATA_DIR, read as the server reads them). With the embedded database, stop the server first: one data
 * folder can be open in one process only. Players named by the MODERATORS setting are not listed here.
 */
import { loadConfig } from '../src/edge/config.js';
import { databaseTarget } from '../src/edge/plugins/db.js';
import { openDatabase } from '../src/infra/db/database.js';
import { moderatorCommand } from '../src/features/moderation/cli.js';
import { ModerationRepository } from '../src/features/moderation/repository.js';

const config = loadConfig(process.env);
const db = await openDatabase(databaseTarget(config));
try {
  const result = await moderatorCommand(
    new ModerationRepository(db.prisma),
    process.argv.slice(2),
    Date.now(),
  );
  (result.status === 0 ? process.stdout : process.stderr).write(`${result.output}\n`);
  process.exitCode = result.status;
} finally {
  await db.close();
}
