import { count, eq, sql } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { DEMO_EMAIL } from './demo-content';

/** What the start command prints under "Loop is running": where to go first. */
export async function firstStepsMessage(db: Db, config: Pick<Config, 'PUBLIC_URL' | 'messagingProvider' | 'SMTP_URL'>): Promise<string> {
  const url = config.PUBLIC_URL;
  const [demo] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.email})`, DEMO_EMAIL))
    .limit(1);
  const [people] = await db.select({ n: count() }).from(users);
  const simulator = config.messagingProvider === 'simulator' ? 'text in as any member' : 'staff only while Twilio is on';
  const places: [string, string][] = [
    [url, 'sign up or log in'],
    [`${url}/simulator`, `the Phone Simulator: ${simulator}`],
  ];
  if (!config.SMTP_URL) places.push([`${url}/simulator/mail`, 'the Mail Simulator: every e-mail Loop would have sent']);
  const width = Math.max(...places.map(([address]) => address.length));
  const lines = ['  Where to go first:', ...places.map(([address, what]) => `    ${address.padEnd(width)}   ${what}`)];
  if (demo) lines.push(`    Demo account: ${DEMO_EMAIL} (its password was printed by \`npm run demo\`)`);
  else if ((people?.n ?? 0) === 0)
    lines.push('    No accounts yet. For sample Loops, stop Loop and run `npm run demo` on this empty database.');
  return lines.join('\n');
}
