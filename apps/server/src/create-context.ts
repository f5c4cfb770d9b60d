import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Database } from './db/client';
import { systemClock, type Clock } from './lib/clock';
import { createTranscriber } from './media/transcribe';
import { createMailTransport } from './mail/transport';
import { createMessagingProvider } from './messaging/create-provider';
import { createNewsletterWriter } from './publishing/create-writer';
import type { AppContext } from './context';
import { createGrowthCache } from './services/admin/get-admin-stats';
import { createSettledCounts } from './services/admin/settled-counts';
import { createMediaStorage } from './storage/create-storage';

/**
 * The app's context with its adapters built once: buildApp uses it, and so do scripts, benches
 * and test processes that run the worker or the scheduler without the HTTP app.
 */
export function createAppContext(
  config: Config,
  database: Database,
  options: { clock?: Clock; log: Pick<FastifyBaseLogger, 'warn'> },
): AppContext {
  return {
    config,
    database,
    db: database.db,
    clock: options.clock ?? systemClock,
    provider: createMessagingProvider(config),
    mailer: createMailTransport(config),
    storage: createMediaStorage(config),
    writer: createNewsletterWriter(config, options.log),
    transcriber: createTranscriber(config, options.log),
    settledCounts: createSettledCounts(),
    growthCache: createGrowthCache(),
  };
}
