import type { Config } from './config';
import type { Database, Db } from './db/client';
import type { Clock } from './lib/clock';
import type { Transcriber } from './media/transcribe';
import type { MailTransport } from './mail/transport';
import type { MessagingProvider } from './messaging/provider';
import type { NewsletterWriter } from './publishing/writer';
import type { GrowthCache } from './services/admin/get-admin-stats';
import type { SettledCounts } from './services/admin/settled-counts';
import type { MediaStorage } from './storage/media-storage';

/**
 * What every route and service needs from the running app. The adapters (provider, storage,
 * writer) are built once, by createAppContext, and handed down from here: nothing caches them.
 */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  clock: Clock;
  /** The configured messaging provider (messaging/create-provider.ts: providerFor picks the simulator for its own address). */
  provider: MessagingProvider;
  /** Where e-mail goes: nodemailer over SMTP_URL, or the Mail Simulator (mail/transport.ts). */
  mailer: MailTransport;
  /** Where media (photos and clips) and data exports are kept. */
  storage: MediaStorage;
  /** Writes newsletters: the model when one is configured, else the template. */
  writer: NewsletterWriter;
  /** Turns voice memos into words where an OpenAI-compatible endpoint is set, else null (decision 0024). */
  transcriber: Transcriber | null;
  /** Delivery counts of settled newsletters, kept a few minutes (services/admin/settled-counts.ts). */
  settledCounts: SettledCounts;
  /** The admin dashboard's growth charts, kept until the data changes (services/admin/get-admin-stats.ts). */
  growthCache: GrowthCache;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}
