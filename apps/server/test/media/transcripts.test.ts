import { eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoopDetail } from '@loop/shared/loops';
import { media } from '../../src/db/schema';
import { sweepUntilIdle } from '../../src/jobs/message-worker';
import { cleanTranscript, createTranscriber } from '../../src/media/transcribe';
import type { MessagingContext } from '../../src/messaging/context';
import { createOpenAiWriter } from '../../src/publishing/openai-writer';
import { templateWriter, writeFromTemplate } from '../../src/publishing/template-writer';
import type { NewsletterInput } from '../../src/publishing/writer';
import { publishNewsletter } from '../../src/services/newsletters/publish-newsletter';
import { signUp } from '../helpers/app';
import { m4aMemo, movVideo } from '../helpers/clips';
import { startFakeOpenAi, type FakeOpenAi } from '../helpers/fake-openai';
import { createLoop, createPerson, textsTo, updatesOf, useFakeTwilioApp } from '../helpers/messaging';
import { mmsParams, postWebhook, sid } from '../helpers/twilio-fixtures';

/**
 * Voice memos transcribed (decision 0024) by the official SDK's audio.transcriptions.create,
 * against a fake OpenAI-compatible server on 127.0.0.1 that reads the multipart upload the way
 * https://platform.openai.com/docs/api-reference/audio/createTranscription describes it (a `file`
 * and a `model` field) and answers its documented shape (`{ "text": ..., "usage": ... }`).
 */
const env = useFakeTwilioApp();
let openai: FakeOpenAi;
beforeAll(async () => {
  openai = await startFakeOpenAi();
});
afterAll(async () => {
  await openai.close();
});

/** The app's messaging context with an endpoint configured, as an operator would set it (the transcriber built from it, as createAppContext does). */
function withEndpoint(settings: Record<string, unknown> = {}): MessagingContext {
  const { ctx } = env.t.app;
  const config = { ...ctx.config, OPENAI_BASE_URL: openai.baseUrl, OPENAI_API_KEY: 'sk-test', ...settings };
  return { ...ctx, config, transcriber: createTranscriber(config, env.t.app.log) };
}

const mediaPath = () => `/2010-04-01/Accounts/${env.fake.accountSid}/Messages/${sid('MM')}/Media/${sid('ME')}`;

/** A member texts a voice memo (and maybe words, a video) by MMS; the worker handles it. */
async function textMemo(input: { body?: string; video?: boolean; ctx?: MessagingContext } = {}) {
  const db = env.db();
  const owner = await signUp(env.t.app);
  const person = await createPerson(db, { firstName: 'Ada' });
  const loop = await createLoop(db, { name: 'Grandkids', memberIds: [owner.user.id, person.id], creatorId: owner.user.id });
  const items = [{ url: env.fake.addMedia(mediaPath(), m4aMemo(2), 'audio/mp4'), contentType: 'audio/mp4' }];
  if (input.video) {
    items.push({
      url: env.fake.addMedia(mediaPath(), movVideo({ seconds: 1, width: 320, height: 240 }), 'video/mp4'),
      contentType: 'video/mp4',
    });
  }
  await postWebhook(
    env.t.app,
    '/api/webhooks/twilio/messages',
    mmsParams({ accountSid: env.fake.accountSid, from: person.phoneNumber, body: input.body ?? '', media: items }),
    {
      authToken: env.fake.authToken,
    },
  );
  await sweepUntilIdle(input.ctx ?? withEndpoint());
  const [update] = await updatesOf(db, loop.id);
  if (!update) throw new Error('no update was stored');
  return { owner, person, loop, update };
}

async function loopDetail(loopId: number, cookie: string): Promise<LoopDetail> {
  const res = await env.t.app.inject({ url: `/api/loops/${loopId}`, headers: { cookie } });
  expect(res.statusCode).toBe(200);
  return res.json<LoopDetail>();
}

async function publish(loopId: number) {
  const published = await publishNewsletter(env.db(), {
    loopId,
    now: new Date(Date.now() + 60_000),
    writer: templateWriter,
    publicUrl: 'https://loop.example',
    send: true,
  });
  if (published.status !== 'sent') throw new Error(`not sent: ${published.status}`);
  return published.newsletter;
}

const pageOf = async (urlId: string) => (await env.t.app.inject({ url: `/newsletters/${urlId}` })).body;

describe('a voice memo transcribed at the configured endpoint', () => {
  it('sends the converted m4a as a multipart upload; the transcript becomes the update’s words, marked, quoted, escaped; delete removes it', async () => {
    const said = 'Hi Grandma!\u0007 <img src=x onerror=alert(1)> **not bold**';
    openai.transcribe({ kind: 'text', text: said });
    const before = openai.uploads.length;
    const { owner, loop, update } = await textMemo();

    // The upload: one, to /audio/transcriptions, with the model field and the stored m4a as `file`.
    expect(openai.uploads.length).toBe(before + 1);
    const upload = openai.uploads.at(-1)!;
    expect(upload.path).toBe('/v1/audio/transcriptions');
    expect(upload.authorization).toBe('Bearer sk-test');
    expect(upload.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(upload.fields).toMatchObject({ model: 'gpt-4o-mini-transcribe', response_format: 'json' });
    const [memo] = update.media;
    const stored = await env.t.app.ctx.storage.get(memo!.variants.at(-1)!.key);
    expect(upload.file).toMatchObject({ name: 'voice-memo.m4a', type: 'audio/mp4' });
    expect(upload.file?.bytes.equals(stored!)).toBe(true);

    // Stored on the memo's row, control characters gone; the member typed nothing.
    const words = 'Hi Grandma! <img src=x onerror=alert(1)> **not bold**';
    expect(update.content).toBe('');
    expect(memo).toMatchObject({ contentType: 'audio/mp4', transcript: words });

    // The Updates tab's API carries the clip with its words, as plain text.
    const detail = await loopDetail(loop.id, owner.cookie);
    expect(detail.updates[0]?.clips).toEqual([
      {
        url: `/media/${memo!.storageKey}`,
        kind: 'audio',
        durationMs: expect.any(Number),
        width: 0,
        height: 0,
        poster: null,
        transcript: words,
      },
    ]);

    // The template writer quotes it under the player, marked as transcribed; the page escapes it.
    const newsletter = await publish(loop.id);
    expect(newsletter.content).toContain(
      `![Voice memo from Ada, 0:02](/media/${memo!.storageKey})\n\n> “Hi Grandma! \\<img src=x onerror=alert(1)> \\*\\*not bold\\*\\*” *(transcribed)*`,
    );
    const html = await pageOf(newsletter.urlId);
    expect(html).toContain('Hi Grandma! &lt;img src=x onerror=alert(1)&gt; **not bold**');
    expect(html).not.toContain('<img src="x"');
    expect(html).not.toContain('<img src=x');
    // On paper: no player, "Listen online" and the page's address (newsletter.css hides it on screen).
    const pageUrl = `${env.t.app.ctx.config.PUBLIC_URL}/newsletters/${newsletter.urlId}`;
    expect(html).toContain(
      `<span class="clip-online">Listen online: <a href="${pageUrl}" rel="nofollow ugc noopener noreferrer">${pageUrl}</a></span>`,
    );

    // Delete means gone: the update's row, its memo's transcript, and the words in the newsletter.
    const res = await env.t.app.inject({
      method: 'DELETE',
      url: `/api/loops/${loop.id}/updates/${update.id}`,
      headers: { cookie: owner.cookie },
    });
    expect(res.statusCode).toBe(200);
    expect(await env.db().select().from(media).where(eq(media.updateId, update.id))).toEqual([]);
    expect(await env.db().select({ transcript: media.transcript }).from(media).where(isNotNull(media.transcript))).not.toContainEqual({
      transcript: words,
    });
    expect(await pageOf(newsletter.urlId)).not.toContain('Grandma');
  });

  it('comes after the member’s own words; a video in the same text is not sent to be transcribed', async () => {
    openai.transcribe({ kind: 'text', text: 'Listen to her laugh.' });
    const before = openai.uploads.length;
    const { loop, update } = await textMemo({ body: 'Her first words!', video: true });
    expect(openai.uploads.length).toBe(before + 1);
    expect(update.content).toBe('Her first words!');
    expect(update.media.map((m) => [m.contentType, m.transcript])).toEqual([
      ['audio/mp4', 'Listen to her laugh.'],
      ['video/mp4', null],
    ]);
    const { content } = await publish(loop.id);
    expect(content.indexOf('Her first words!')).toBeLessThan(content.indexOf('> “Listen to her laugh.” *(transcribed)*'));
    expect(content.indexOf('![Voice memo from Ada')).toBeLessThan(content.indexOf('> “Listen to her laugh.”'));
  });

  it.each([
    ['answers 500', { kind: 'status', status: 500, body: { error: { message: 'The server had an error', type: 'server_error' } } }, {}],
    ['never answers (time-out)', { kind: 'hang' }, { TRANSCRIPTION_TIMEOUT_MS: 300 }],
    ['answers only blanks', { kind: 'text', text: ' \n\t ' }, {}],
  ] as const)(
    'when the endpoint %s, the update is kept without words: "Voice memo, 0:02" with a player',
    async (_name, answer, settings) => {
      openai.transcribe(answer);
      const before = openai.uploads.length;
      const { owner, person, loop, update } = await textMemo({ body: '', ctx: withEndpoint(settings) });
      expect(openai.uploads.length).toBe(before + 1);
      expect(update.content).toBe('');
      expect(update.media.map((m) => [m.contentType, m.transcript])).toEqual([['audio/mp4', null]]);
      expect((await loopDetail(loop.id, owner.cookie)).updates[0]?.clips[0]).toMatchObject({ kind: 'audio', transcript: null });
      expect((await textsTo(env.db(), person.phoneNumber)).at(-1)?.body).toBe(
        'Thanks Ada! Your update and voice memo went to "Grandkids".',
      );
      const html = await pageOf((await publish(loop.id)).urlId);
      expect(html).toContain('<span class="clip-label">Voice memo, 0:02</span>');
      expect(html).not.toContain('(transcribed)');
    },
  );

  it('without an endpoint nothing is sent anywhere and the memo has no words', async () => {
    const before = openai.uploads.length;
    const { update } = await textMemo({ ctx: env.t.app.ctx });
    expect(openai.uploads.length).toBe(before);
    expect(update.media[0]?.transcript).toBeNull();
  });

  it('a transcription model setting goes into the upload (a self-hosted Whisper server names its own)', async () => {
    openai.transcribe({ kind: 'text', text: 'Hello.' });
    await textMemo({ ctx: withEndpoint({ OPENAI_TRANSCRIPTION_MODEL: 'whisper-1' }) });
    expect(openai.uploads.at(-1)?.fields.model).toBe('whisper-1');
  });
});

describe('a transcript kept as plain text, at most TRANSCRIPT_MAX_CHARS', () => {
  it('drops control and direction characters, keeps single line breaks, cuts a long one at a word', () => {
    expect(cleanTranscript('  Hello\u0000 there\u202e!\r\n\r\n\r\nBye  ', 100)).toBe('Hello there !\nBye');
    expect(cleanTranscript(' \u200b\n ', 100)).toBeNull();
    const long = cleanTranscript('word '.repeat(3000), 5000);
    expect(long!.length).toBeLessThanOrEqual(5000);
    expect(long).toMatch(/word…$/);
  });

  it('a transcript longer than the limit is stored cut', async () => {
    openai.transcribe({ kind: 'text', text: 'na '.repeat(200) });
    const { update } = await textMemo({ ctx: withEndpoint({ TRANSCRIPT_MAX_CHARS: 50 }) });
    const kept = update.media[0]?.transcript ?? '';
    expect(kept.length).toBeLessThanOrEqual(50);
    expect(kept).toMatch(/^na na .*na…$/);
  });
});

const MEMO_URL = '/media/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

/** A writer's input: Ada sent one voice memo (42 s) with these words and typed nothing. */
function memoInput(kind: NewsletterInput['kind'], transcript: string): NewsletterInput {
  return {
    kind,
    loop: { name: 'Grandkids', context: null, vibe: ['family'], timeZone: 'UTC' },
    period: { start: new Date('2026-03-01T00:00:00Z'), end: new Date('2026-03-08T00:00:00Z') },
    updates: [
      {
        authorId: 1,
        author: { firstName: 'Ada', lastName: 'Lovelace', context: null },
        content: '',
        createdAt: new Date('2026-03-02T10:00:00Z'),
        photoUrls: [],
        clips: [{ url: MEMO_URL, kind: 'audio', durationMs: 42_000, width: 0, height: 0, poster: null, transcript }],
      },
    ],
  };
}

describe('the sneak peek quotes what a voice memo said when the member typed nothing', () => {
  it('takes the transcript as the update’s words', () => {
    expect(writeFromTemplate(memoInput('sneak_peek', 'We *miss* you!')).content).toContain('> **Ada:** We \\*miss\\* you!');
  });
});

describe('the model writer is given the transcript to quote', () => {
  it('puts it beside the voice memo in the facts, and says to quote it', async () => {
    openai.answer({ kind: 'content', content: JSON.stringify({ content: 'Ada sent a voice memo.' }) });
    const writer = createOpenAiWriter({
      apiKey: 'sk-test',
      baseUrl: openai.baseUrl,
      model: 'fake-model',
      timeoutMs: 10_000,
      log: { warn: () => {} },
    });
    await writer.write(memoInput('newsletter', 'We miss you!'));
    const messages = openai.requests.at(-1)?.body.messages as { role: string; content: string }[];
    expect(messages[0]?.content).toContain('quote it word for word');
    expect(JSON.parse(messages[1]!.content).updates[0].voiceMemos).toEqual([{ url: MEMO_URL, length: '0:42', transcript: 'We miss you!' }]);
  });
});
