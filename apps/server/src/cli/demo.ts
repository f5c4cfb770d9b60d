import type { Db } from '../db/client';
import { mailLinksOf, type MailLinks } from '../mail/links';
import { runAsCommand, type CommandResult } from './run-command';
import { newsletterUrl } from '../publishing/newsletter-texts';
import { seedDemo } from '../services/demo/seed-demo';
import type { MediaStorage } from '../storage/media-storage';

/** Fills an empty database with the demo and returns what to print and the exit code. */
export async function runDemoCommand(
  db: Db,
  options: { publicUrl: string; storage: MediaStorage; now?: Date; mail?: MailLinks | undefined },
): Promise<CommandResult> {
  const result = await seedDemo(db, {
    storage: options.storage,
    now: options.now ?? new Date(),
    publicUrl: options.publicUrl,
    mail: options.mail,
  });
  if (result.status === 'refused') {
    const people = result.userCount === 1 ? '1 user' : `${result.userCount} users`;
    return {
      output: `This database already has ${people}: the demo only fills an empty database, so nothing was changed.\nUse a new DATA_DIR (or an empty DATABASE_URL), for example: DATA_DIR=./demo-data npm run demo`,
      code: 1,
    };
  }
  const url = options.publicUrl;
  const lines = [
    'Demo data is ready.',
    '',
    `  Staff account   ${result.email}`,
    `  Password        ${result.password}`,
    '',
    ...result.loops.map(
      (loop) =>
        `  ${loop.name}: ${loop.memberCount} members, ${loop.updateCount} updates` +
        (loop.newsletterUrlId ? `, newsletter ${newsletterUrl(url, loop.newsletterUrlId)}` : ''),
    ),
    '',
    `Start Loop with \`npm start\` (same DATA_DIR or DATABASE_URL), open ${url}/auth and log in;`,
    `play any member's phone at ${url}/simulator. Staff pages are at ${url}/admin.`,
  ];
  return { output: lines.join('\n'), code: 0 };
}

runAsCommand(import.meta.url, ({ db, config, storage }) =>
  runDemoCommand(db, { publicUrl: config.PUBLIC_URL, storage, mail: mailLinksOf(config) }),
);
