import { textChannel } from '../../messaging/context';
import { and, desc, eq, exists, inArray, or, sql } from 'drizzle-orm';
import type { SimulatorMessage } from '@loop/shared/simulator';
import type { Db } from '../../db/client';
import { messages, updates } from '../../db/schema';
import { findPhotos } from '../../media/find-media';
import { SIMULATOR_SCOPE_PARAM } from '../../messaging/simulator';

const MAX_MESSAGES = 200;

/**
 * The last texts a phone sent and received, oldest first, as the simulator shows them. With a
 * `scope`, only the texts about those Loops (sent for one, or stored as an update in one), and the
 * texts the viewer sent from this simulator for those Loops with the replies to them (a reply to a
 * text that shared nothing, or to STOP, belongs to no Loop).
 */
export async function readPhoneThread(db: Db, phoneNumber: string, scope: readonly number[] | null = null): Promise<SimulatorMessage[]> {
  if (scope && scope.length === 0) return [];
  const addresses = [phoneNumber, `whatsapp:${phoneNumber}`];
  const scopeArray = scope
    ? sql`array[${sql.join(
        scope.map((id) => sql`${id}`),
        sql`, `,
      )}]::bigint[]`
    : sql``;
  const sentForScope = (raw: unknown) => sql`string_to_array(${raw} ->> ${SIMULATOR_SCOPE_PARAM}, ',')::bigint[] && ${scopeArray}`;
  const inScope = scope
    ? or(
        inArray(messages.loopId, [...scope]),
        exists(
          db
            .select({ id: updates.id })
            .from(updates)
            .where(and(eq(updates.messageId, messages.id), inArray(updates.loopId, [...scope]))),
        ),
        and(eq(messages.direction, 'inbound'), sentForScope(messages.raw)),
        and(
          eq(messages.direction, 'outbound'),
          sql`exists (select 1 from messages src where ${messages.idempotencyKey} = 'reply:' || src.id and src.direction = 'inbound' and ${sentForScope(sql`src.raw`)})`,
        ),
      )
    : undefined;
  const rows = await db
    .select()
    .from(messages)
    .where(
      and(
        or(
          and(eq(messages.direction, 'inbound'), inArray(messages.fromAddress, addresses)),
          and(eq(messages.direction, 'outbound'), inArray(messages.toAddress, addresses)),
        ),
        inScope,
      ),
    )
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(MAX_MESSAGES);
  // A photo shows while its update exists: a deleted update's photos leave the thread too.
  const photos = await findPhotos(
    db,
    rows.flatMap((row) => row.mediaUrls),
  );
  return rows.reverse().map((row) => ({
    id: row.id,
    direction: row.direction,
    channel: textChannel(row.channel),
    kind: row.kind,
    body: row.body,
    mediaUrls: row.mediaUrls,
    photos: row.mediaUrls.flatMap((url) => photos.get(url) ?? []),
    attachments: row.direction === 'inbound' ? attachmentLabels(row.raw ?? {}) : [],
    status: row.status,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
  }));
}

const LABELS: [RegExp, string][] = [
  [/^video\//, 'Video'],
  [/^audio\//, 'Voice memo'],
  [/^text\/(x-)?vcard|^text\/directory/, 'Contact card'],
  [/^application\/pdf/, 'PDF'],
];

/** The non-photo media and location pin of an inbound text, in words, from Twilio's parameters. */
function attachmentLabels(params: Record<string, string>): string[] {
  const labels: string[] = [];
  const count = Math.min(Number.parseInt(params.NumMedia ?? '0', 10) || 0, 10);
  for (let i = 0; i < count; i++) {
    const type = (params[`MediaContentType${i}`] ?? '').toLowerCase();
    if (type === '' || type.startsWith('image/')) continue;
    labels.push(LABELS.find(([pattern]) => pattern.test(type))?.[1] ?? 'File');
  }
  if (params.MessageType === 'location' || (params.Latitude !== undefined && params.Longitude !== undefined)) labels.push('Location');
  return labels;
}
