import pg from 'pg';

/**
 * 10,000 Loops, 100,000 members and 1,000,000 updates, set-wise in SQL, into a fresh migrated
 * database (ids start at 1). Loop sizes vary (2 to 18 members) so "members" sorting means
 * something; Loop 1 is the largest, with 1,000 members' worth of updates.
 */
export async function seedLarge(url: string, options: { loops?: number; members?: number; updates?: number } = {}): Promise<void> {
  const loops = options.loops ?? 10_000;
  const members = options.members ?? 100_000;
  const updates = options.updates ?? 1_000_000;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`
      insert into users (first_name, last_name, email, phone_number, created_at)
      select (array['Ada','Grace','Alan','Edsger','Barbara','Ken','Margaret','Linus'])[1 + g % 8], 'Person ' || g,
             case when g % 3 = 0 then 'person' || g || '@example.com' end, '+1628' || (2000000 + g)::text,
             now() - (g % 365) * interval '1 day'
      from generate_series(1, ${members}) g`);
    await client.query(`
      insert into loops (name, vibe, context, time_zone, creator_id, created_at, paused, frequency)
      select (array['Family','Cousins','Book Club','Team','Friends','Neighbours'])[1 + g % 6] || ' ' || g, '{family,fun}',
             'Loop number ' || g, 'UTC', 1 + ((g - 1) * 10) % ${members}, now() - (g % 365) * interval '1 day', g % 17 = 0,
             (array['weekly','biweekly','monthly'])[1 + g % 3]::frequency
      from generate_series(1, ${loops}) g`);
    // Each user joins one Loop; Loop sizes vary with the Loop id.
    await client.query(`
      insert into members (loop_id, user_id, created_at)
      select 1 + ((u - 1) * 7919) % ${loops}, u, now() - (u % 365) * interval '1 day' from generate_series(1, ${members}) u
      on conflict do nothing`);
    await client.query(`
      insert into updates (loop_id, user_id, content, created_at)
      select m.loop_id, m.user_id, 'Update number ' || g || ': the garden is growing and the kids say hi.', now() - (g % 9000) * interval '1 hour'
      from generate_series(1, ${updates}) g
      join members m on m.id = 1 + (g * 7) % ${members}`);
    await client.query('analyze');
  } finally {
    await client.end();
  }
}
