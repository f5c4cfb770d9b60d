import pg from 'pg';

/**
 * 10,000 Loops, 100,000 members and 1,000,000 updates, set-wise in SQL, into a fresh migrated
 * database (ids start at 1). Each person is in one Loop and its first member created it. Loop sizes
 * vary (1 to 18 members) so "members" sorting means something; Loop 1 is the largest: 1,005
 * members, 10,050 updates and 26 sent newsletters with a text per member each (26,130 messages).
 * Every other Loop has 6 sent newsletters (about 60,000 in all). Ends with VACUUM ANALYZE, as
 * autovacuum would (the benchmark's PostgreSQL may run without it).
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
    // Sizes 1-18 for Loops 2..n; Loop 1 takes the rest of the people. Loop l's members are the
    // people numbered first_person .. first_person + size - 1, and the first of them created it.
    await client.query(`
      create temporary table loop_sizes as
      with sized as (
        select l, case when l = 1 then 0 else 2 + (7 * l) % 17 - (l % 10 = 0)::int end as size
        from generate_series(1, ${loops}) l
      ),
      fixed as (
        select l, case when l = 1 then ${members} - (select sum(size) from sized) else size end as size from sized
      )
      select l, size, 1 + coalesce(sum(size) over (order by l rows between unbounded preceding and 1 preceding), 0) as first_person
      from fixed`);
    await client.query(`
      insert into loops (name, vibe, context, time_zone, creator_id, created_at, paused, frequency)
      select (array['Family','Cousins','Book Club','Team','Friends','Neighbours'])[1 + l % 6] || ' ' || l, '{family,fun}',
             'Loop number ' || l, 'UTC', first_person, now() - (1 + l % 365) * interval '1 day', l % 17 = 0,
             (array['weekly','biweekly','monthly'])[1 + l % 3]::frequency
      from loop_sizes order by l`);
    await client.query(`
      insert into members (loop_id, user_id, created_at)
      select s.l, s.first_person + k, now() - (1 + s.l % 365) * interval '1 day' + k * interval '1 minute'
      from loop_sizes s, generate_series(0, s.size - 1) k`);
    // Ten updates per member: Loop 1 gets 1,005 members' worth.
    await client.query(`
      insert into updates (loop_id, user_id, content, created_at)
      select m.loop_id, m.user_id, 'Update number ' || g || ': the garden is growing and the kids say hi.', now() - (g % 9000) * interval '1 hour'
      from generate_series(1, ${updates}) g
      join members m on m.id = 1 + g % ${members}`);
    const content = `'# Our fortnight\n\n' || repeat('Everyone checked in this week: the garden, the new puppy, exams and a trip to the coast. ', 12)`;
    await client.query(`
      insert into newsletters (loop_id, status, url_id, title, content, period_start, period_end, created_at, sent_at)
      select s.l, 'sent', 'seed-' || s.l || '-' || n, 'Newsletter ' || n, ${content},
             now() - (n + 1) * interval '14 days', now() - n * interval '14 days',
             now() - n * interval '14 days' - (s.l % 97) * interval '1 minute', now() - n * interval '14 days' - (s.l % 97) * interval '1 minute' + interval '1 minute'
      from loop_sizes s, generate_series(0, case when s.l = 1 then 25 else 5 end) n`);
    await client.query(`
      insert into messages (direction, channel, kind, to_address, from_address, body, status, idempotency_key, loop_id, user_id, newsletter_id, created_at, sent_at)
      select 'outbound', 'sms', 'newsletter', u.phone_number, '+15005550006', 'Your newsletter is ready', 
             case when (m.id + n.id) % 50 = 0 then 'failed' when (m.id + n.id) % 10 = 0 then 'sent' else 'delivered' end,
             'newsletter:' || n.id || ':' || m.id, 1, m.user_id, n.id, n.sent_at, n.sent_at
      from newsletters n join members m on m.loop_id = n.loop_id join users u on u.id = m.user_id
      where n.loop_id = 1`);
    await client.query('vacuum analyze');
  } finally {
    await client.end();
  }
}
