import { pgliteTemplate, TEST_DATABASE_URL } from './database';

/**
 * Runs once before the server tests' workers start: makes the migrated PGlite template (when it
 * is not cached yet) so that the workers load it instead of each migrating its own database.
 */
export default async function setup(): Promise<void> {
  if (!TEST_DATABASE_URL) await pgliteTemplate();
}
