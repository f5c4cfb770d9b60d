import type { Config } from '../config';
import type { Database, Db } from '../db/client';
import type { Clock } from '../lib/clock';

/** What every route and service needs from the running app. */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  clock: Clock;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}
