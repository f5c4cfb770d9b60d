import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { messages } from '../../db/schema';
import { convertClip } from '../../media/clip';
import type { MessagingContext } from '../../messaging/context';
import { fetchMedia, type FetchMediaOptions } from '../../messaging/fetch-media';
import { clipLimitsFor } from '../../messaging/inbound-media';
import type { LoopRef } from '../inbound/route-text';
import { storeUpdates } from '../updates/store-updates';

/** A 2-minute recording is about 2 MB of WAV (8 kHz, 16-bit, mono); this leaves room. */
const MAX_RECORDING_BYTES = 16 * 1024 * 1024;

export interface RecordedNews {
  userId: number;
  phoneNumber: string;
  /** The number called (ours). */
  calledNumber: string;
  loop: LoopRef;
  callSid: string;
  recordingSid: string;
  recordingUrl: string;
}

export type RecordedNewsOutcome = 'stored' | 'duplicate' | { refused: string };

/**
 * News left on a call (decision 0067): the recording is a `messages` row (channel `voice`, once
 * per RecordingSid), fetched from Twilio by the MMS media rule (its hosts only, Basic auth only
 * there), converted and transcribed by the voice-memo pipeline (no metadata kept), and stored as
 * the member's voice memo update in the Loop they chose on the call.
 */
export async function storeRecordedNews(
  ctx: MessagingContext,
  news: RecordedNews,
  fetchOptions: FetchMediaOptions = {},
): Promise<RecordedNewsOutcome> {
  const [row] = await ctx.db
    .insert(messages)
    .values({
      direction: 'inbound',
      channel: 'voice',
      kind: 'inbound',
      fromAddress: news.phoneNumber,
      toAddress: news.calledNumber,
      status: 'processing',
      providerMessageId: `voice:${news.recordingSid}`,
      userId: news.userId,
      loopId: news.loop.id,
      raw: { CallSid: news.callSid, RecordingSid: news.recordingSid },
      createdAt: ctx.clock(),
    })
    .onConflictDoNothing({ target: messages.providerMessageId })
    .returning();
  if (!row) return 'duplicate';
  const refuse = async (reason: string) => {
    await finish(ctx.db, row.id, { status: 'ignored', error: `Not shared: ${reason}.` });
    return { refused: reason };
  };
  const { config } = ctx;
  const limits = clipLimitsFor(config, true);
  if (!limits) return refuse('this server has no ffmpeg to convert recordings');
  const fetched = await fetchMedia(
    news.recordingUrl,
    {
      accountSid: config.TWILIO_ACCOUNT_SID ?? '',
      authToken: config.TWILIO_AUTH_TOKEN ?? '',
      ...(config.TWILIO_API_BASE_URL ? { trustedOrigin: config.TWILIO_API_BASE_URL } : {}),
    },
    { ...fetchOptions, maxBytes: MAX_RECORDING_BYTES, accept: 'audio/*' },
  );
  if (!fetched.ok) return refuse(`the recording could not be downloaded (${fetched.reason})`);
  const converted = await convertClip(fetched.bytes, { ...limits, maxBytes: MAX_RECORDING_BYTES });
  if (!converted.ok) return refuse(converted.reason);
  const transcript = ctx.transcriber ? await ctx.transcriber.transcribe(converted.clip.bytes) : null;
  const clip = transcript ? { ...converted.clip, transcript } : converted.clip;
  await storeUpdates(ctx, {
    row,
    userId: news.userId,
    loops: [news.loop],
    content: '',
    photos: [],
    clips: [clip],
    storage: ctx.storage,
    finish: (tx, mediaUrls) => finish(tx, row.id, { status: 'processed', mediaUrls }),
  });
  return 'stored';
}

async function finish(db: DbOrTx, id: number, outcome: { status: 'processed' | 'ignored'; error?: string; mediaUrls?: string[] }) {
  await db
    .update(messages)
    .set({
      status: outcome.status,
      error: outcome.error ?? null,
      ...(outcome.mediaUrls ? { mediaUrls: outcome.mediaUrls } : {}),
      updatedAt: sql`now()`,
    })
    .where(eq(messages.id, id));
}
