import { and, eq, inArray, isNotNull, ne, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import {
  consentQuestions,
  dataExports,
  emailSuppressions,
  emailTokens,
  hashedEmailSuppressions,
  erasureRequests,
  loops,
  media,
  members,
  messages,
  phoneCodes,
  undeliverablePhones,
  updates,
  users,
} from '../../db/schema';
import { AppError } from '../../errors';
import { suppressionHashSql } from '../../mail/outbox';
import { takeUploadedCover } from '../loops/loop-cover';
import { storedKeysOf } from '../../media/stored-media';
import { optOutErasedPhone } from '../../messaging/opt-outs';
import { quotedLoop } from '../../messaging/quote';
import { membershipIsActive } from '../members/membership-is-active';
import { rewriteNewslettersCovering } from '../newsletters/rewrite-newsletters';

export interface DeleteAccountInput {
  userId: number;
  /** Owned Loops handed to another active member with an account. */
  handOver: readonly { loopId: number; toUserId: number }[];
  /** Owned Loops deleted with the account. Every owned Loop is in exactly one of the two lists. */
  deleteLoops: readonly number[];
  /** 'account_deleted' (Profile) or 'erased_by_text' (DELETE by text). */
  reason: string;
  now: Date;
}

/** What a text's or a delivery log's address becomes once its person is deleted. */
export const ERASED_ADDRESS = 'deleted';

/**
 * Deletes a person and everything they sent, in the caller's transaction (decision 0045): their
 * Loops deleted or handed over as they chose, their updates with media rows, and every newsletter
 * that showed them rewritten without them (sent ones included: "delete means gone", decision 0022);
 * their texts kept as delivery logs without content or number; their phone opted out by hash
 * only; the account, its sessions, memberships and exports (foreign keys cascade). Returns the
 * storage keys of their media and exports, for the caller to remove once the transaction commits.
 */
export async function deleteAccount(tx: DbOrTx, input: DeleteAccountInput): Promise<string[]> {
  const [user] = await tx.select().from(users).where(eq(users.id, input.userId)).for('update');
  if (!user) throw new AppError('not_found', 'This account no longer exists.');
  const owned = await tx.select({ id: loops.id, name: loops.name }).from(loops).where(eq(loops.creatorId, user.id)).orderBy(loops.id);
  await checkOwnedLoopChoices(tx, user.id, owned, input);

  const keys: string[] = [];
  for (const { loopId, toUserId } of input.handOver) {
    await tx.update(loops).set({ creatorId: toUserId }).where(eq(loops.id, loopId));
  }
  if (input.deleteLoops.length > 0) {
    const loopMedia = await tx
      .select({ storageKey: media.storageKey, variants: media.variants })
      .from(media)
      .innerJoin(updates, eq(updates.id, media.updateId))
      .where(inArray(updates.loopId, [...input.deleteLoops]));
    keys.push(...loopMedia.flatMap(storedKeysOf), ...(await takeUploadedCover(tx, [...input.deleteLoops])));
    await tx.delete(loops).where(inArray(loops.id, [...input.deleteLoops]));
  }

  // Their updates in the Loops that remain, and every newsletter that showed them.
  const sent = await tx
    .select({ id: updates.id, loopId: updates.loopId, createdAt: updates.createdAt })
    .from(updates)
    .where(eq(updates.userId, user.id));
  if (sent.length > 0) {
    const sentMedia = await tx
      .select({ storageKey: media.storageKey, variants: media.variants })
      .from(media)
      .where(
        inArray(
          media.updateId,
          sent.map((u) => u.id),
        ),
      );
    keys.push(...sentMedia.flatMap(storedKeysOf));
    await tx.delete(updates).where(eq(updates.userId, user.id));
    const covered = new Map<string, { loopId: number; at: Date }>();
    for (const u of sent) covered.set(`${u.loopId}:${u.createdAt.toISOString()}`, { loopId: u.loopId, at: u.createdAt });
    for (const at of covered.values()) await rewriteNewslettersCovering(tx, at);
  }

  const exports = await tx
    .select({ storageKey: dataExports.storageKey })
    .from(dataExports)
    .where(and(eq(dataExports.userId, user.id), isNotNull(dataExports.storageKey)));
  keys.push(...exports.flatMap((e) => (e.storageKey ? [e.storageKey] : [])));

  // Every e-mail address that was theirs leaves no trace in the clear (decision 0050).
  const emails = await theirEmailAddresses(tx, user);
  await eraseEmailAddresses(tx, user.id, emails);

  // Texts and e-mails to and from them stay as delivery logs (kind, status, times, provider id)
  // with no words, media, raw parameters, number or e-mail address; any not sent yet never will be.
  const phone = user.phoneNumber;
  const addresses = [phone, `whatsapp:${phone}`, ...emails];
  const addressList = sql.join(
    addresses.map((address) => sql`${address}`),
    sql`, `,
  );
  const theirs = or(eq(messages.userId, user.id), inArray(messages.toAddress, addresses), inArray(messages.fromAddress, addresses));
  await tx
    .update(messages)
    .set({
      body: '',
      mediaUrls: [],
      raw: null,
      toAddress: sql`case when ${messages.toAddress} in (${addressList}) then ${ERASED_ADDRESS} else ${messages.toAddress} end`,
      fromAddress: sql`case when ${messages.fromAddress} in (${addressList}) then ${ERASED_ADDRESS} else ${messages.fromAddress} end`,
      status: sql`case when ${messages.direction} = 'outbound' and ${messages.status} in ('queued', 'sending') then 'failed' else ${messages.status} end`,
      error: sql`case when ${messages.direction} = 'outbound' and ${messages.status} in ('queued', 'sending') then 'Not sent: the account was deleted.' else null end`,
      updatedAt: sql`now()`,
    })
    .where(theirs);

  await tx.delete(consentQuestions).where(eq(consentQuestions.phoneNumber, phone));
  await tx.delete(erasureRequests).where(eq(erasureRequests.phoneNumber, phone));
  await tx.delete(phoneCodes).where(eq(phoneCodes.phoneNumber, phone));
  await tx.delete(undeliverablePhones).where(eq(undeliverablePhones.phoneNumber, phone));
  await optOutErasedPhone(tx, phone, input.reason, input.now);
  await tx.delete(users).where(eq(users.id, user.id));
  return keys;
}

/**
 * The e-mail addresses that were this person's: the account's, those owners typed for their
 * memberships, and those Loop e-mailed them at or took replies from (an address changed since);
 * lower-case, without any that another account or membership still holds.
 */
async function theirEmailAddresses(tx: DbOrTx, user: { id: number; email: string | null }): Promise<string[]> {
  const result = await tx.execute(sql`
    select distinct a.address from (
      select lower(${user.email ?? ''}) as address
      union select lower(${members.email}) from ${members} where ${members.userId} = ${user.id}
      union select lower(${messages.toAddress}) from ${messages}
        where ${messages.userId} = ${user.id} and ${messages.channel} = 'email' and ${messages.direction} = 'outbound'
      union select lower(${messages.fromAddress}) from ${messages}
        where ${messages.userId} = ${user.id} and ${messages.channel} = 'email' and ${messages.direction} = 'inbound'
    ) a
    where a.address like '%@%'
      and not exists (select 1 from ${users} u where u.id <> ${user.id} and lower(u.email) = a.address)
      and not exists (select 1 from ${members} m where m.user_id <> ${user.id} and lower(m.email) = a.address)`);
  return (result as { rows: { address: string }[] }).rows.map((r) => r.address);
}

/**
 * Their suppressions kept only as hashes (still never e-mailed), their links' tokens deleted, and
 * e-mail rows' keys (`confirm:{userId}:{address}`) that name an address made `erased:{row id}`.
 */
async function eraseEmailAddresses(tx: DbOrTx, userId: number, emails: string[]): Promise<void> {
  await tx.delete(emailTokens).where(eq(emailTokens.userId, userId));
  if (emails.length === 0) return;
  await tx.execute(sql`
    insert into ${hashedEmailSuppressions} (address_hash, reason, created_at)
    select ${suppressionHashSql(emailSuppressions.address)}, ${emailSuppressions.reason}, ${emailSuppressions.createdAt}
    from ${emailSuppressions} where ${inArray(emailSuppressions.address, emails)}
    on conflict (address_hash) do nothing`);
  await tx.delete(emailSuppressions).where(inArray(emailSuppressions.address, emails));
  await tx.delete(emailTokens).where(inArray(emailTokens.address, emails));
  const named = sql.join(
    emails.map((address) => sql`position(${address} in lower(${messages.idempotencyKey})) > 0`),
    sql` or `,
  );
  await tx
    .update(messages)
    .set({ idempotencyKey: sql`'erased:' || ${messages.id}` })
    .where(sql`${messages.idempotencyKey} is not null and (${named})`);
}

/** Every owned Loop is handed over or deleted, once; each heir is an active member with an account. */
async function checkOwnedLoopChoices(
  tx: DbOrTx,
  userId: number,
  owned: { id: number; name: string }[],
  input: Pick<DeleteAccountInput, 'handOver' | 'deleteLoops'>,
): Promise<void> {
  const ownedIds = new Set(owned.map((l) => l.id));
  const chosen = [...input.handOver.map((h) => h.loopId), ...input.deleteLoops];
  if (new Set(chosen).size !== chosen.length) throw new AppError('bad_request', 'Choose each Loop once: hand it over or delete it.');
  const stranger = chosen.find((id) => !ownedIds.has(id));
  if (stranger !== undefined) throw new AppError('bad_request', `Loop ${stranger} is not one of your Loops.`);
  const open = owned.filter((l) => !chosen.includes(l.id));
  if (open.length > 0) {
    const names = open.map((l) => quotedLoop(l.name)).join(', ');
    throw new AppError('conflict', `You run ${names}. Hand each to another member or delete it, then delete your account.`);
  }
  for (const { loopId, toUserId } of input.handOver) {
    const [heir] = await tx
      .select({ id: users.id })
      .from(members)
      .innerJoin(users, eq(users.id, members.userId))
      .where(
        and(
          eq(members.loopId, loopId),
          eq(members.userId, toUserId),
          ne(members.userId, userId),
          membershipIsActive,
          isNotNull(users.passwordHash),
        ),
      );
    if (!heir) {
      const name = owned.find((l) => l.id === loopId)?.name ?? '';
      throw new AppError('bad_request', `${quotedLoop(name)} can go only to an active member with an account.`);
    }
  }
}
