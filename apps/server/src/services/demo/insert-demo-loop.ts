import type { StoredMedia } from '../../media/stored-media';
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { createLoopSchema } from '@loop/shared/loops';
import type { DbOrTx } from '../../db/client';
import type { MailLinks } from '../../mail/links';
import { loops, media, members, messages, newsletters, updates, users } from '../../db/schema';
import { queueWelcomeText } from '../../messaging/outbox';
import { SIMULATOR_ADDRESS } from '../../messaging/simulator';
import { templateWriter } from '../../publishing/template-writer';
import { nextNewsletterAt, nextReminderAt } from '../schedules/schedule-columns';
import { mediaUrl } from '../../storage/media-storage';
import { findOrCreateMemberUser } from '../members/find-or-create-member-user';
import { draftScheduledNewsletter } from '../newsletters/draft-scheduled-newsletter';
import { publishNewsletter } from '../newsletters/publish-newsletter';
import { nextNewsletterSlot } from '../schedules/next-newsletter';
import type { DemoLoop } from './demo-content';

const DAY = 24 * 60 * 60 * 1000;
export const DEMO_TIME_ZONE = 'America/New_York';

export interface InsertedDemoLoop {
  id: number;
  name: string;
  memberCount: number;
  updateCount: number;
  newsletterUrlId: string | null;
}

/**
 * One demo Loop, told as it would have happened: created four weeks ago, members added, their
 * texts arriving as updates (with the inbound texts the Phone Simulator shows), and one newsletter
 * sent. Texts the story "sent" are stored as sent: starting the server never texts a made-up phone.
 */
export async function insertDemoLoop(
  tx: DbOrTx,
  input: {
    loop: DemoLoop;
    staffId: number;
    now: Date;
    publicUrl: string;
    mail?: MailLinks | undefined;
    photos: (update: number) => StoredMedia[];
  },
): Promise<InsertedDemoLoop> {
  const { loop, now } = input;
  const ago = (days: number) => new Date(now.getTime() - days * DAY);
  const createdAt = ago(28);
  const parsed = createLoopSchema.parse({
    name: loop.name,
    context: loop.context,
    vibe: loop.vibe,
    frequency: loop.frequency,
    timeZone: DEMO_TIME_ZONE,
  });
  const [row] = await tx
    .insert(loops)
    .values({
      name: parsed.name,
      context: parsed.context,
      vibe: parsed.vibe,
      frequency: parsed.frequency,
      reminderSchedule: parsed.reminderSchedule,
      timeZone: parsed.timeZone,
      creatorId: input.staffId,
      createdAt,
      // From the real now: the scheduler does not rush to catch up on the story's past.
      nextReminderAt: nextReminderAt(parsed, now),
      nextNewsletterAt: nextNewsletterAt(parsed, now),
      newsletterReview: loop.newsletterReview,
    })
    .returning({ id: loops.id });
  if (!row) throw new Error('insert returned no row');
  await tx.insert(members).values({ loopId: row.id, userId: input.staffId, status: 'active', confirmedAt: createdAt, createdAt });
  await queueWelcomeText(tx, { userId: input.staffId, loopId: row.id, loopName: parsed.name });

  const people = [input.staffId];
  for (const person of loop.members) {
    // In the story each of them was invited and replied YES within the hour.
    const joinedAt = new Date(createdAt.getTime() + 60 * 60 * 1000);
    const { user } = await findOrCreateMemberUser(tx, { ...person, email: null }, joinedAt);
    const [added] = await tx
      .insert(members)
      .values({
        loopId: row.id,
        userId: user.id,
        context: person.context,
        status: 'active',
        invitedById: input.staffId,
        invitedAt: createdAt,
        confirmedAt: joinedAt,
        createdAt: joinedAt,
      })
      .onConflictDoNothing({ target: [members.loopId, members.userId] })
      .returning({ id: members.id });
    if (!added) throw new Error(`${person.firstName} is in ${parsed.name} twice`);
    await queueWelcomeText(tx, { userId: user.id, loopId: row.id, loopName: parsed.name });
    people.push(user.id);
  }

  for (const [index, update] of loop.updates.entries()) {
    const userId = people[update.by];
    if (userId === undefined) throw new Error(`update ${index} of ${parsed.name} has no author`);
    const at = ago(update.daysAgo);
    const photos = input.photos(index);
    const keys = photos.map((p) => p.storageKey);
    const [author] = await tx
      .select({ phone: users.phoneNumber, channel: users.messagingPreference })
      .from(users)
      .where(eq(users.id, userId));
    if (!author) throw new Error('the author was not stored');
    const whatsapp = author.channel === 'whatsapp' ? 'whatsapp:' : '';
    const [text] = await tx
      .insert(messages)
      .values({
        direction: 'inbound',
        channel: author.channel,
        kind: 'inbound',
        fromAddress: `${whatsapp}${author.phone}`,
        toAddress: `${whatsapp}${SIMULATOR_ADDRESS}`,
        body: update.text,
        mediaUrls: keys.map(mediaUrl),
        status: 'processed',
        loopId: row.id,
        userId,
        createdAt: at,
        updatedAt: at,
      })
      .returning({ id: messages.id });
    const [stored] = await tx
      .insert(updates)
      .values({ loopId: row.id, userId, content: update.text, messageId: text?.id, createdAt: at })
      .returning({ id: updates.id });
    if (!stored) throw new Error('insert returned no row');
    if (photos.length > 0) {
      await tx.insert(media).values(photos.map((p, position) => ({ ...p, updateId: stored.id, position, createdAt: at })));
    }
  }

  const published = await publishNewsletter(tx, {
    loopId: row.id,
    now: ago(loop.newsletterDaysAgo),
    writer: templateWriter,
    publicUrl: input.publicUrl,
    mail: input.mail,
    send: true,
  });

  // The story's texts went out when they happened. Its e-mails wait for the worker, which hands
  // them to the Mail Simulator at the first start (no e-mail leaves the machine without SMTP_URL).
  const texts = and(eq(messages.loopId, row.id), eq(messages.direction, 'outbound'), ne(messages.channel, 'email'));
  await tx
    .update(messages)
    .set({
      status: 'sent',
      fromAddress: sql`case when ${messages.channel} = 'whatsapp' then ${`whatsapp:${SIMULATOR_ADDRESS}`} else ${SIMULATOR_ADDRESS} end`,
      createdAt: sql`coalesce(
        (select ${newsletters.sentAt} from ${newsletters} where ${newsletters.id} = ${messages.newsletterId}),
        (select ${members.createdAt} from ${members} where ${members.loopId} = ${messages.loopId} and ${members.userId} = ${messages.userId}),
        ${messages.createdAt})`,
    })
    .where(and(texts, inArray(messages.status, ['queued'])));
  await tx
    .update(messages)
    .set({ sentAt: sql`${messages.createdAt}`, updatedAt: sql`${messages.createdAt}` })
    .where(texts);

  // The coming issue's draft, as the scheduler writes it before its send time (decision 0040), and
  // the owner's text with its link: stored as sent now, as the story's texts are.
  const sendAt = nextNewsletterAt(parsed, now);
  const draft = await draftScheduledNewsletter(tx, {
    loopId: row.id,
    sendAt,
    now,
    writer: templateWriter,
    publicUrl: input.publicUrl,
    review: loop.newsletterReview,
  });
  if (draft.status !== 'drafted') throw new Error(`${parsed.name} has no updates for its coming newsletter`);
  await tx
    .update(loops)
    .set({ nextNewsletterAt: nextNewsletterSlot(parsed.frequency, parsed.timeZone, sendAt).at })
    .where(eq(loops.id, row.id));
  await tx
    .update(messages)
    .set({ status: 'sent', fromAddress: SIMULATOR_ADDRESS, createdAt: now, sentAt: now, updatedAt: now })
    .where(and(texts, eq(messages.status, 'queued')));

  return {
    id: row.id,
    name: parsed.name,
    memberCount: people.length,
    updateCount: loop.updates.length,
    newsletterUrlId: published.status === 'sent' ? published.newsletter.urlId : null,
  };
}
