import { buildApp } from './app';
import { ConfigError, loadConfig, loadEnvFile } from './config';
import { startJobs } from './jobs/boss';
import { firstStepsMessage } from './services/demo/first-steps-message';

async function main(): Promise<void> {
  const envFile = loadEnvFile();
  const config = loadConfig();
  const app = await buildApp(config);
  const jobs = await startJobs(app.ctx, { log: app.log });
  // The jobs stop while the requests drain; the database closes after both (app.ts's onClose
  // hook was added first, so it runs last).
  let jobsStopped: Promise<void> | undefined;
  const stopJobs = () => (jobsStopped ??= jobs.stop());
  app.addHook('onClose', stopJobs);

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal} received: finishing requests and stopping`);
    const force = setTimeout(() => {
      app.log.error('shutdown took longer than 10 s: exiting');
      process.exit(1);
    }, 10_000);
    force.unref();
    // No new batch is claimed from here on; texts waiting for their turn go back to the outbox.
    void stopJobs().catch((error: unknown) => app.log.error({ err: error }, 'stopping the jobs failed'));
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));

  await app.listen({ port: config.PORT, host: config.HOST });
  const where = app.ctx.database.kind === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL';
  const settings = envFile ? `, settings from ${envFile}` : '';
  console.log(`\n  Loop is running at ${config.PUBLIC_URL}  (${where}, ${config.messagingProvider} texts${settings})\n`);
  console.log(`${await firstStepsMessage(app.ctx.db, config).catch(() => '')}\n`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error(error instanceof Error ? error.message : error);
  }
  process.exit(1);
});
