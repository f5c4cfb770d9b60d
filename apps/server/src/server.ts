import { buildApp } from './app';
import { ConfigError, loadConfig, loadEnvFile } from './config';
import { startJobs } from './jobs/boss';
import { startReplyListener } from './jobs/reply-listener';
import { convertExistingPhotos } from './media/convert-existing';
import { findFfmpeg } from './media/ffmpeg';
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
  // Replies by e-mail (decision 0049): it stops taking mail first, and lets messages under way finish.
  const replyListener =
    config.MAIL_INBOUND_PORT === undefined
      ? null
      : await startReplyListener(app.ctx, { port: config.MAIL_INBOUND_PORT, host: config.HOST, log: app.log });
  let listenerClosed: Promise<void> | undefined;
  const closeListener = () => (listenerClosed ??= replyListener?.close() ?? Promise.resolve());
  app.addHook('onClose', closeListener);

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
    void closeListener().catch((error: unknown) => app.log.error({ err: error }, 'stopping the e-mail reply listener failed'));
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

  // Fastify's own "Server listening" line would land, as JSON, in the middle of the start-up
  // text below; that text says where Loop listens, so at the default level the line is left out
  // (warnings still show; LOG_LEVEL=debug or trace keeps it).
  const level = app.log.level;
  if (level === 'info') app.log.level = 'warn';
  await app.listen({ port: config.PORT, host: config.HOST }).finally(() => (app.log.level = level));
  const where = app.ctx.database.kind === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL';
  const settings = envFile ? `, settings from ${envFile}` : '';
  const firstSteps = await firstStepsMessage(app.ctx.db, config).catch(() => '');
  // One write, so no log line from the background work can land inside it.
  console.log(
    [
      `\n  Loop is running at ${config.PUBLIC_URL}  (${where}, ${config.messagingProvider} texts${settings})\n`,
      ...(replyListener
        ? [`  Replies by e-mail: SMTP on ${config.HOST}:${replyListener.port} for reply+...@${config.MAIL_REPLY_DOMAIN}\n`]
        : []),
      ...(config.messagingProvider === 'simulator' ? [`${SIMULATOR_WARNING}\n`] : []),
      ...(findFfmpeg(config.FFMPEG_PATH) === null ? [`${NO_FFMPEG_WARNING}\n`] : []),
      `${firstSteps}\n`,
    ].join('\n'),
  );
  // Photos stored before the pipeline are converted in the background; a stop resumes next start.
  convertExistingPhotos(app.ctx.db, app.ctx.storage, app.log).then(
    (report) => report.converted + report.removed > 0 && app.log.info(report, 'Stored photos converted'),
    (error: unknown) => app.log.warn({ err: error }, 'Converting stored photos stopped; it goes on at the next start'),
  );
}

/** Said at every start in simulator mode: codes are shown on screen, so they prove nothing. */
const SIMULATOR_WARNING = [
  '  Texts go to the Phone Simulator, not to real phones. Simulator mode proves nothing about who',
  '  holds a phone: sign-up and password-reset codes are shown on the screen to whoever asks. It is',
  '  for trying Loop; real groups need Twilio (see README, "Text messages with Twilio").',
].join('\n');

/** Said at every start on a machine without ffmpeg: members' voice memos and videos are refused. */
const NO_FFMPEG_WARNING = [
  '  Voice memos and videos are off: this machine has no ffmpeg (or FFMPEG_PATH points at none).',
  '  Members who send one are told only their text and photos were shared. Install it',
  '  (Debian/Ubuntu: sudo apt-get install -y ffmpeg; macOS: brew install ffmpeg) and start Loop again.',
].join('\n');

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error(error instanceof Error ? error.message : error);
  }
  process.exit(1);
});
