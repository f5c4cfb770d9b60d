/**
 * After "Delete my account" no table holds the person's e-mail address in the clear (GDPR Article
 * 17; decision 0050): the suppression of their address is kept as a hash (as hashed_opt_outs keeps
 * a phone's STOP, decision 0045), so they are still never e-mailed; their links' tokens are
 * deleted; and e-mail rows' keys (`confirm:{userId}:{address}`) no longer name the address. Every
 * column of every table of the database is searched for it.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepUnsubscribeTokens, unsubscribeToken } from '../../../src/mail/links';
import { emailMayBeSent } from '../../../src/mail/outbox';
import { requestEmailConfirmation } from '../../../src/services/email/confirm-address';
import { unsubscribeByLink } from '../../../src/services/email/unsubscribe';
import { createTestApp, signUp, type TestContext } from '../../helpers/app';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** "schema.table.column" of every column, in every schema of the database but PostgreSQL's own, whose text holds `needle`. */
async function columnsHolding(needle: string): Promise<string[]> {
  const db = t.app.ctx.db;
  const columns = await db.execute(sql`
    select table_schema as schema, table_name as "table", column_name as "column" from information_schema.columns
    where table_schema not in ('pg_catalog', 'information_schema')
      and table_name in (select table_name from information_schema.tables t where t.table_schema = columns.table_schema and t.table_type = 'BASE TABLE')`);
  const found: string[] = [];
  for (const c of (columns as { rows: { schema: string; table: string; column: string }[] }).rows) {
    const hits = await db.execute(
      sql`select 1 from ${sql.identifier(c.schema)}.${sql.identifier(c.table)} where ${sql.identifier(c.column)}::text ilike ${`%${needle}%`} limit 1`,
    );
    if ((hits as { rows: unknown[] }).rows.length > 0) found.push(`${c.schema}.${c.table}.${c.column}`);
  }
  return found;
}

async function mayBeEmailed(address: string): Promise<boolean> {
  const result = await t.app.ctx.db.execute(sql`select 1 where ${emailMayBeSent(sql`${address}::text`, 'confirm_address')}`);
  return (result as { rows: unknown[] }).rows.length > 0;
}

describe('DELETE /api/user and e-mail', () => {
  it('leaves the address in no table, and the address is still never e-mailed', async () => {
    const { db, config } = t.app.ctx;
    const priya = await signUp(t.app, { firstName: 'Priya', email: 'Priya.Patel@Example.org' });
    const address = 'priya.patel@example.org';
    // A confirmation e-mail (its key names the address), the links' tokens, then an unsubscribe.
    expect(await db.transaction((tx) => requestEmailConfirmation(tx, config, { userId: priya.user.id, now: new Date() }))).toBe(true);
    await keepUnsubscribeTokens(db, config.SESSION_SECRET, [address]);
    expect(await unsubscribeByLink(db, config.SESSION_SECRET, unsubscribeToken(config.SESSION_SECRET, address))).toBe(true);
    expect(await columnsHolding('priya.patel')).toEqual(
      expect.arrayContaining([
        'public.users.email',
        'public.email_suppressions.address',
        'public.email_tokens.address',
        'public.messages.idempotency_key',
      ]),
    );

    const res = await t.app.inject({
      method: 'DELETE',
      url: '/api/user',
      headers: { cookie: priya.cookie },
      payload: { password: priya.account.password },
    });
    expect(res.statusCode).toBe(200);
    expect(await columnsHolding('priya.patel')).toEqual([]);
    // Unsubscribed once, never e-mailed again, not even a confirmation to a new account of hers.
    expect(await mayBeEmailed(address)).toBe(false);
    expect(await mayBeEmailed('someone.else@example.org')).toBe(true);
  });
});
