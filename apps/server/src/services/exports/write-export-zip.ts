import { createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { and, asc, eq, gt, inArray, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { ZipFile } from 'yazl';
import type { DbOrTx } from '../../db/client';
import { loops, media, members, messages, newsletters, reactions, updates, users, type MediaVariant } from '../../db/schema';
import type { MediaStorage } from '../../storage/media-storage';
import { readOptOuts } from './read-opt-outs';

const adder = alias(users, 'adder');

/** Updates read from the database at a time: the zip's memory stays flat whatever their number. */
const PAGE = 200;

const EXTENSIONS: Record<string, string> = {
  'image/webp': 'webp',
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'audio/mp4': 'm4a',
  'audio/mpeg': 'mp3',
  'audio/ogg': 'ogg',
  'video/mp4': 'mp4',
};

/** The one file a media row is served as: a photo's largest size, or the converted memo or video. */
function servedKey(row: { storageKey: string; variants: MediaVariant[] }): string {
  return row.variants.at(-1)?.key ?? row.storageKey;
}

/**
 * Writes a person's data (GDPR Article 15 and 20) to `file` as a zip, streamed: `account.json`,
 * `memberships.json`, `updates.json` (each update with its media's file names), `texts.json`
 * (the texts Loop sent them and the ones they sent), `opt-outs.json` (STOP, unsubscribe, bounce
 * marks), `reactions.json` (what they sent back to each newsletter, decision 0056), and `media/` with every photo, voice memo and video as Loop serves it. Memberships carry
 * what others wrote about them: the owner's note, the name, e-mail and preference typed when they
 * were added, who added them, and the zone the owner chose. Media are read from storage one at a time, when the zip reaches
 * them, and JSON is written a page at a time. Returns the zip's size in bytes.
 */
export async function writeExportZip(db: DbOrTx, storage: MediaStorage, userId: number, file: string, now: Date): Promise<number> {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) throw new Error('no such user');
  const zip = new ZipFile();
  const written = pipeline(zip.outputStream, createWriteStream(file, { mode: 0o600 }));
  const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 2)}\n`);

  zip.addBuffer(
    json({
      exportedAt: now.toISOString(),
      id: user.id,
      firstName: user.firstName,
      lastName: user.lastName,
      email: user.email,
      phoneNumber: user.phoneNumber,
      messagingPreference: user.messagingPreference,
      newsletterDelivery: user.newsletterDelivery,
      emailConfirmedAt: user.emailConfirmedAt?.toISOString() ?? null,
      timeZone: user.timeZone,
      phoneTimeZone: user.phoneTimeZone || null,
      isStaff: user.isStaff,
      hasPassword: user.passwordHash !== null,
      createdAt: user.createdAt.toISOString(),
    }),
    'account.json',
  );

  const memberships = await db
    .select({
      loopId: loops.id,
      loop: loops.name,
      owner: eq(loops.creatorId, userId),
      status: members.status,
      joinedAt: members.confirmedAt,
      addedAt: members.createdAt,
      invitedAt: members.invitedAt,
      invitationWithheld: members.invitationWithheld,
      addedBy: sql<string | null>`nullif(trim(${adder.firstName} || ' ' || ${adder.lastName}), '')`,
      ownerNote: members.context,
      typedWhenAdded: {
        firstName: members.firstName,
        lastName: members.lastName,
        email: members.email,
        messagingPreference: members.messagingPreference,
      },
      timeZoneChosenByOwner: members.timeZone,
    })
    .from(members)
    .innerJoin(loops, eq(loops.id, members.loopId))
    .leftJoin(adder, eq(adder.id, members.invitedById))
    .where(eq(members.userId, userId))
    .orderBy(asc(members.id));
  zip.addBuffer(json(memberships), 'memberships.json');

  // Updates, a page at a time; each page's media files are added as lazy streams, opened only
  // when the zip comes to them.
  const parts: string[] = [];
  let afterId = 0;
  for (;;) {
    const page = await db
      .select({ id: updates.id, loopId: updates.loopId, loop: loops.name, content: updates.content, createdAt: updates.createdAt })
      .from(updates)
      .innerJoin(loops, eq(loops.id, updates.loopId))
      .where(and(eq(updates.userId, userId), gt(updates.id, afterId)))
      .orderBy(asc(updates.id))
      .limit(PAGE);
    if (page.length === 0) break;
    afterId = page.at(-1)?.id ?? afterId;
    const files = await db
      .select()
      .from(media)
      .where(
        inArray(
          media.updateId,
          page.map((u) => u.id),
        ),
      )
      .orderBy(asc(media.updateId), asc(media.position), asc(media.id));
    for (const update of page) {
      const own = files.filter((m) => m.updateId === update.id);
      const entries = own.map((m, i) => {
        const name = `media/update-${update.id}-${i + 1}.${EXTENSIONS[m.contentType] ?? 'bin'}`;
        const key = servedKey(m);
        // Photos, memos and videos are compressed already: stored as they are.
        zip.addReadStreamLazy(name, { compress: false }, (callback) => {
          storage.getStream(key).then(
            (stream) => callback(null, stream ?? Readable.from([])),
            (error: unknown) => callback(error as Error, Readable.from([])),
          );
        });
        return { file: name, contentType: m.contentType, durationMs: m.variants.at(-1)?.durationMs ?? null, transcript: m.transcript };
      });
      parts.push(JSON.stringify({ ...update, createdAt: update.createdAt.toISOString(), media: entries }, null, 2));
    }
  }
  zip.addBuffer(Buffer.from(`[${parts.join(',\n')}]\n`), 'updates.json');

  const addresses = [user.phoneNumber, `whatsapp:${user.phoneNumber}`];
  const texts = await db
    .select({
      direction: messages.direction,
      channel: messages.channel,
      kind: messages.kind,
      body: messages.body,
      status: messages.status,
      createdAt: messages.createdAt,
      sentAt: messages.sentAt,
    })
    .from(messages)
    .where(or(eq(messages.userId, userId), inArray(messages.toAddress, addresses), inArray(messages.fromAddress, addresses)))
    .orderBy(asc(messages.createdAt), asc(messages.id));
  zip.addBuffer(json(texts), 'texts.json');
  zip.addBuffer(json(await readOptOuts(db, user)), 'opt-outs.json');
  const reacted = await db
    .select({
      loop: loops.name,
      newsletter: newsletters.title,
      newsletterSentAt: newsletters.sentAt,
      body: reactions.body,
      createdAt: reactions.createdAt,
    })
    .from(reactions)
    .innerJoin(newsletters, eq(newsletters.id, reactions.newsletterId))
    .innerJoin(loops, eq(loops.id, newsletters.loopId))
    .where(eq(reactions.userId, userId))
    .orderBy(asc(reactions.createdAt), asc(reactions.id));
  zip.addBuffer(json(reacted), 'reactions.json');
  zip.end();
  await written;
  return (await stat(file)).size;
}
