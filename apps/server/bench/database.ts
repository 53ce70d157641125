/**
 * The database the benchmark and the soak run in: on a fresh machine the Postgres server is up but the
 * database their URL names (by default `klondike_test`) does not exist yet, and both failed at their first
 * query with `database "klondike_test" does not exist`.
 */
import pg from 'pg';

/** Postgres's SQLSTATE for "database does not exist" (invalid_catalog_name). */
const NO_SUCH_DATABASE = '3D000';

/**
 * Creates the database named by `url` (a `postgresql://` URL; a `schema` parameter is ignored) when it does
 * not exist, through the server's `postgres` maintenance database. Resolves once it exists; rejects with the
 * driver's error when the server cannot be reached or refuses (no right to create databases).
 */
export async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  target.searchParams.delete('schema');
  const probe = new pg.Client({ connectionString: target.toString() });
  try {
    await probe.connect();
    return;
  } catch (e) {
    if ((e as { code?: unknown }).code !== NO_SUCH_DATABASE) throw e;
  } finally {
    await probe.end().catch(() => undefined);
  }
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(target);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
    console.error(`created the database ${name}`);
  } catch (e) {
    // Another run created it between the probe and here.
    if ((e as { code?: unknown }).code !== '42P04') throw e;
  } finally {
    await client.end();
  }
}
