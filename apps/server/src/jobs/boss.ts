import { PgBoss, fromPglite } from 'pg-boss';
import type { AppContext } from '../plugins/context';

export interface Jobs {
  boss: PgBoss;
  stop: () => Promise<void>;
}

/** Starts pg-boss on the app's own database: PGlite through its adapter, or the PostgreSQL URL. */
export async function startJobs(ctx: AppContext): Promise<Jobs> {
  const { database } = ctx;
  const boss =
    database.kind === 'pglite'
      ? new PgBoss({ db: fromPglite(database.pglite), backend: 'pglite' } as ConstructorParameters<typeof PgBoss>[0])
      : new PgBoss({ connectionString: ctx.config.DATABASE_URL, max: 4 });
  boss.on('error', (error: unknown) => console.error('job queue error:', error));
  await boss.start();
  return {
    boss,
    stop: () => boss.stop({ graceful: true, timeout: 8000 }),
  };
}
