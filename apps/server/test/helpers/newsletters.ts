import { eq } from 'drizzle-orm';
import type { Db } from '../../src/db/client';
import { messages } from '../../src/db/schema';
import type { TestApp } from './app';
import { insertUpdate } from './loops';

/** Calls a newsletter route as the person with this cookie (none: signed out). */
export function callAs(app: TestApp, cookie: string | undefined, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) {
  return app.inject({
    method,
    url,
    ...(cookie ? { headers: { cookie } } : {}),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

/** Generates a draft through the API and returns it. */
export async function generateAs(app: TestApp, cookie: string, loopId: number) {
  const res = await callAs(app, cookie, 'POST', `/api/loops/${loopId}/newsletters/generate`);
  if (res.statusCode !== 201) throw new Error(`generate failed: ${res.statusCode} ${res.body}`);
  return res.json<{ newsletter: { id: number; urlId: string; content: string } }>().newsletter;
}

/** The outbound texts that carry one newsletter. */
export function textsOf(db: Db, newsletterId: number) {
  return db.select().from(messages).where(eq(messages.newsletterId, newsletterId)).orderBy(messages.id);
}

/**
 * Stores an update as the pipeline would, then lets the clock move on: the database stamps it to
 * the microsecond, the app's clock counts milliseconds, and a period ends before "now".
 */
export async function addUpdate(...args: Parameters<typeof insertUpdate>) {
  const update = await insertUpdate(...args);
  await new Promise((resolve) => setTimeout(resolve, 2));
  return update;
}
