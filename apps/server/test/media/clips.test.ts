import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepUntilIdle } from '../../src/jobs/message-worker';
import { CLIP_REFUSALS, convertClip, sniffClipFormat, type ClipLimits } from '../../src/media/clip';
import { findFfmpeg, inputOptions, runningTools, runTool } from '../../src/media/ffmpeg';
import { clipLimitsFor } from '../../src/messaging/inbound-media';
import { parseRange } from '../../src/routes/media';
import { amrMemo, LOCATION, m4aMemo, movVideo, mp3Memo, oggMemo, probe } from '../helpers/clips';
import { signUp } from '../helpers/app';
import { createLoop, createPerson, textsTo, updatesOf, useFakeTwilioApp } from '../helpers/messaging';
import { mmsParams, postWebhook, sid, whatsappParams } from '../helpers/twilio-fixtures';

const tools = findFfmpeg(undefined);
if (!tools) throw new Error('ffmpeg is not installed: apt-get install -y ffmpeg (decision 0023)');
const limits: ClipLimits = {
  tools,
  maxBytes: 5 * 1024 * 1024,
  voiceMaxSeconds: 300,
  videoMaxSeconds: 120,
  videoPixelBudget: 7465e6,
  timeoutMs: 60_000,
};

// Conversions in this file work in a temporary folder of its own, so the check below sees only
// theirs, not those of other test files converting at the same time (os.tmpdir() reads TMPDIR).
const ownTmp = mkdtempSync(join(tmpdir(), 'loop-clips-test-'));
process.env.TMPDIR = ownTmp;
afterAll(() => rmSync(ownTmp, { recursive: true, force: true }));

/** Nothing of a conversion is left behind: no ffmpeg running, no temporary folder. */
function expectNothingLeft() {
  expect(runningTools()).toBe(0);
  expect(readdirSync(tmpdir()).filter((name) => name.startsWith('loop-clip-'))).toEqual([]);
}

/**
 * The tags of every kind that could say where or when or with what: none may survive. The one
 * `encoder` tag left is the H.264 track's fixed compressor name ("Lavc libx264"), Loop's own.
 */
function revealingTags(bytes: Buffer): string[] {
  const info = probe(bytes);
  const tags = [info.format.tags ?? {}, ...info.streams.map((s) => s.tags ?? {})].flatMap((t) => Object.entries(t));
  return tags
    .filter(([name, value]) => !(name === 'encoder' && value === 'Lavc libx264'))
    .filter(([name, value]) => /location|creation_time|date|make|model|com\.apple|encoder|gps|xyz/i.test(name) || value.includes('48.8584'))
    .map(([name, value]) => `${name}=${value}`);
}

describe('the voice memo and video pipeline (media/clip.ts)', () => {
  it('fixtures carry a location before conversion (else the tests below prove nothing)', () => {
    expect(probe(m4aMemo()).format.tags?.location).toBe(LOCATION);
    expect(probe(movVideo({ seconds: 1 })).format.tags?.location).toBe(LOCATION);
  });

  it.each([
    ['AMR (Android)', amrMemo, 'amr'],
    ['Ogg Opus (WhatsApp)', oggMemo, 'ogg'],
    ['AAC in MP4 (iPhone)', m4aMemo, 'mov'],
    ['MP3', mp3Memo, 'mp3'],
  ] as const)('%s becomes AAC in MP4 with no metadata', async (_name, make, format) => {
    const input = make(3);
    expect(sniffClipFormat(input)).toBe(format);
    const result = await convertClip(input, limits);
    if (!result.ok) throw new Error(result.reason);
    expect(result.clip).toMatchObject({ kind: 'audio', contentType: 'audio/mp4', width: 0, height: 0 });
    expect(result.clip.durationMs).toBeGreaterThan(2500);
    expect(result.clip.durationMs).toBeLessThan(3600);
    const info = probe(result.clip.bytes);
    expect(info.format.format_name).toContain('mp4');
    expect(info.streams.map((s) => [s.codec_type, s.codec_name])).toEqual([['audio', 'aac']]);
    expect(revealingTags(result.clip.bytes)).toEqual([]);
    expectNothingLeft();
  });

  it('a 1080p QuickTime video becomes H.264 + AAC MP4 at 720p, moov first, no location, with a WebP poster', async () => {
    const result = await convertClip(movVideo({ seconds: 2 }), limits);
    if (!result.ok) throw new Error(result.reason);
    const { clip } = result;
    expect(clip).toMatchObject({ kind: 'video', contentType: 'video/mp4', width: 1280, height: 720 });
    const info = probe(clip.bytes);
    expect(info.streams.map((s) => [s.codec_type, s.codec_name])).toEqual([
      ['video', 'h264'],
      ['audio', 'aac'],
    ]);
    expect(info.chapters).toEqual([]);
    expect(revealingTags(clip.bytes)).toEqual([]);
    // +faststart: the moov box comes before the media data, so a browser can start playing at once.
    expect(clip.bytes.indexOf('moov')).toBeLessThan(clip.bytes.indexOf('mdat'));
    expect(clip.poster).toMatchObject({ width: 1280, height: 720 });
    expect(clip.poster?.variants.map((v) => v.width)).toEqual([320, 640, 1280]);
    expectNothingLeft();
  });

  it('a portrait video stays portrait, at most 720 wide', async () => {
    const result = await convertClip(movVideo({ seconds: 1, width: 1080, height: 1920 }), limits);
    expect(result).toMatchObject({ ok: true, clip: { width: 720, height: 1280 } });
  });

  it('an audio file that claims to be a video is kept as what it is: a voice memo', async () => {
    // The sender's content type decides nothing; the streams in the file do.
    expect(await convertClip(m4aMemo(2), limits)).toMatchObject({ ok: true, clip: { kind: 'audio' } });
  });

  describe('bad input: a reason for the sender, nothing kept, no ffmpeg left running', () => {
    const zip = Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(200, 7)]);
    it.each([
      ['a 0-byte file', () => Buffer.alloc(0), CLIP_REFUSALS.empty],
      ['a zip named .mp4', () => zip, CLIP_REFUSALS.unreadable],
      ['a truncated video (cut in half)', () => movVideo({ seconds: 2 }).subarray(0, 20_000), CLIP_REFUSALS.damaged],
      ['a truncated voice memo', () => m4aMemo(3).subarray(0, 600), CLIP_REFUSALS.damaged],
      ['a 2-hour voice memo (AMR, 4.7 MB)', () => amrMemo(7200), CLIP_REFUSALS.tooLong('audio', 300)],
      ['a file over the limit', () => Buffer.alloc(5 * 1024 * 1024 + 1, 1), CLIP_REFUSALS.tooLarge(5 * 1024 * 1024)],
    ])('%s', async (_name, make, reason) => {
      expect(await convertClip(make(), limits)).toEqual({ ok: false, reason });
      expectNothingLeft();
    });

    it('a video over the length limit', async () => {
      expect(await convertClip(movVideo({ seconds: 3, width: 320, height: 240 }), { ...limits, videoMaxSeconds: 2 })).toEqual({
        ok: false,
        reason: CLIP_REFUSALS.tooLong('video', 2),
      });
      expectNothingLeft();
    });

    it('a conversion past its time limit is killed and refused', async () => {
      expect(await convertClip(movVideo({ seconds: 2 }), { ...limits, timeoutMs: 50 })).toMatchObject({ ok: false });
      expectNothingLeft();
    });
  });

  describe('the playlist attack: a "video" that is an HLS playlist pointing at local files and 127.0.0.1', () => {
    let server: Server;
    let hits: string[];
    let port: number;
    beforeAll(async () => {
      hits = [];
      server = createServer((request, response) => {
        hits.push(request.url ?? '');
        response.end('#EXTM3U\n');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const playlist = () =>
      Buffer.from(
        `#EXTM3U\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:10.0,\nhttp://127.0.0.1:${port}/stolen.ts\n#EXTINF:10.0,\nfile:///etc/passwd\n#EXT-X-ENDLIST\n`,
      );

    it('is refused as unreadable before ffmpeg opens it, whatever its name or type', async () => {
      expect(await convertClip(playlist(), limits)).toEqual({ ok: false, reason: CLIP_REFUSALS.unreadable });
      // Behind an MP4 header, the MOV demuxer Loop forces reads no playlist either.
      const disguised = Buffer.concat([Buffer.from([0, 0, 0, 0x14]), Buffer.from('ftypisom\0\0\x02\0isom', 'latin1'), playlist()]);
      expect(await convertClip(disguised, limits)).toEqual({ ok: false, reason: CLIP_REFUSALS.damaged });
      expect(hits).toEqual([]);
      expectNothingLeft();
    });

    it('even read as HLS, -protocol_whitelist file,pipe lets ffmpeg fetch no URL', async () => {
      const { mkdtemp, writeFile, rm } = await import('node:fs/promises');
      const dir = await mkdtemp(`${tmpdir()}/loop-playlist-`);
      try {
        await writeFile(`${dir}/list.m3u8`, playlist());
        const run = await runTool(
          tools.ffprobe,
          ['-v', 'error', ...inputOptions('hls'), '-show_entries', 'format=duration', '-of', 'json', `${dir}/list.m3u8`],
          20_000,
        );
        expect(run.code).not.toBe(0);
        expect(run.stdout).not.toContain('root:');
        expect(hits).toEqual([]);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
      expect(runningTools()).toBe(0);
    });
  });
});

describe('GET /media: Range requests (RFC 9110 section 14), as Safari needs to play audio and video', () => {
  it('parses one range, suffixes and open ends; refuses ranges past the end', () => {
    expect(parseRange('bytes=0-99', 1000)).toEqual({ start: 0, end: 99 });
    expect(parseRange('bytes=900-', 1000)).toEqual({ start: 900, end: 999 });
    expect(parseRange('bytes=-100', 1000)).toEqual({ start: 900, end: 999 });
    expect(parseRange('bytes=0-5000', 1000)).toEqual({ start: 0, end: 999 });
    expect(parseRange('bytes=1000-', 1000)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-1,5-6', 1000)).toBeNull();
    expect(parseRange('items=0-1', 1000)).toBeNull();
    expect(parseRange(undefined, 1000)).toBeNull();
  });
});

describe('limits by channel', () => {
  const env = useFakeTwilioApp();
  it('MMS 5 MB and WhatsApp 16 MB by default; no ffmpeg at FFMPEG_PATH means none are taken', () => {
    // Twilio: about 5 MB per MMS (https://www.twilio.com/docs/messaging/guides/accepted-mime-types);
    // WhatsApp: audio and video up to 16 MB (https://developers.facebook.com/docs/whatsapp/cloud-api/reference/media#supported-media-types).
    const config = env.t.app.ctx.config;
    expect(clipLimitsFor(config, false)?.maxBytes).toBe(5 * 1024 * 1024);
    expect(clipLimitsFor(config, true)?.maxBytes).toBe(16 * 1024 * 1024);
    expect(clipLimitsFor({ ...config, FFMPEG_PATH: '/nonexistent/ffmpeg' }, false)).toBeNull();
  });
});

describe('voice memos and videos texted in (signed Twilio webhooks)', () => {
  const env = useFakeTwilioApp();
  const db = () => env.db();
  const mediaPath = () => `/2010-04-01/Accounts/${env.fake.accountSid}/Messages/${sid('MM')}/Media/${sid('ME')}`;
  const post = (params: Record<string, string>) =>
    postWebhook(env.t.app, '/api/webhooks/twilio/messages', params, { authToken: env.fake.authToken });
  /** Every storage key on disk (local storage under DATA_DIR/media). */
  const storedFiles = () => {
    const root = `${env.t.app.ctx.config.DATA_DIR}/media`;
    try {
      return readdirSync(root, { recursive: true })
        .filter((f) => String(f).length > 40)
        .map(String);
    } catch {
      return [];
    }
  };

  it('AMR, Ogg and MP4 audio and a QuickTime video with a text become one update that plays, with nothing hidden', async () => {
    const person = await createPerson(db(), { firstName: 'Ada' });
    const loop = await createLoop(db(), { name: 'Grandkids', memberIds: [person.id] });
    // Content types as Twilio lists them (https://www.twilio.com/docs/messaging/guides/accepted-mime-types).
    const media = [
      { url: env.fake.addMedia(mediaPath(), amrMemo(2), 'audio/amr'), contentType: 'audio/amr' },
      { url: env.fake.addMedia(mediaPath(), oggMemo(2), 'audio/ogg'), contentType: 'audio/ogg' },
      { url: env.fake.addMedia(mediaPath(), m4aMemo(2), 'audio/mp4'), contentType: 'audio/mp4' },
      { url: env.fake.addMedia(mediaPath(), movVideo({ seconds: 2 }), 'video/quicktime'), contentType: 'video/quicktime' },
    ];
    await post(mmsParams({ accountSid: env.fake.accountSid, from: person.phoneNumber, body: 'Her first words!', media }));
    await sweepUntilIdle(env.t.app.ctx);
    const [update] = await updatesOf(db(), loop.id);
    expect(update?.content).toBe('Her first words!');
    expect(update?.media.map((m) => m.contentType)).toEqual(['audio/mp4', 'audio/mp4', 'audio/mp4', 'video/mp4']);
    expect((await textsTo(db(), person.phoneNumber))[0]?.body).toBe(
      'Thanks Ada! Your update, 3 voice memos and video went to "Grandkids".',
    );

    const video = update!.media[3]!;
    expect(video).toMatchObject({ width: 1280, height: 720 });
    const whole = await env.t.app.inject({ url: `/media/${video.storageKey}` });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers).toMatchObject({ 'content-type': 'video/mp4', 'accept-ranges': 'bytes', 'x-content-type-options': 'nosniff' });
    expect(revealingTags(whole.rawPayload)).toEqual([]);
    const part = await env.t.app.inject({ url: `/media/${video.storageKey}`, headers: { range: 'bytes=100-199' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${whole.rawPayload.length}`);
    expect(part.rawPayload).toEqual(whole.rawPayload.subarray(100, 200));
    const past = await env.t.app.inject({ url: `/media/${video.storageKey}`, headers: { range: `bytes=${whole.rawPayload.length}-` } });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${whole.rawPayload.length}`);
    const poster = await env.t.app.inject({ url: `/media/${video.storageKey}/640` });
    expect(poster.statusCode).toBe(200);
    expect(poster.headers['content-type']).toBe('image/webp');

    for (const memo of update!.media.slice(0, 3)) {
      const served = await env.t.app.inject({ url: `/media/${memo.storageKey}`, headers: { range: 'bytes=0-' } });
      expect(served.statusCode).toBe(206);
      expect(served.headers['content-type']).toBe('audio/mp4');
      expect(revealingTags(served.rawPayload)).toEqual([]);
      expect(memo.variants.at(-1)?.durationMs).toBeGreaterThan(1500);
    }
    expectNothingLeft();
  });

  it('delete means gone: the update, its voice memo, video and poster sizes leave storage and /media', async () => {
    const owner = await signUp(env.t.app);
    const texter = await createPerson(db(), { firstName: 'Noor' });
    const loop = await createLoop(db(), { name: 'Cousins', memberIds: [owner.user.id, texter.id], creatorId: owner.user.id });
    const media = [
      { url: env.fake.addMedia(mediaPath(), m4aMemo(1), 'audio/mp4'), contentType: 'audio/mp4' },
      { url: env.fake.addMedia(mediaPath(), movVideo({ seconds: 1, width: 640, height: 360 }), 'video/mp4'), contentType: 'video/mp4' },
    ];
    const before = storedFiles().length;
    await post(mmsParams({ accountSid: env.fake.accountSid, from: texter.phoneNumber, body: 'Secret birthday', media }));
    await sweepUntilIdle(env.t.app.ctx);
    const [update] = await updatesOf(db(), loop.id);
    const keys = update!.media.flatMap((m) => m.variants.map((v) => v.key));
    expect(keys).toHaveLength(1 + 3); // the memo; the video and its poster at 320 and 640
    expect(storedFiles().length).toBe(before + keys.length);
    const res = await env.t.app.inject({
      method: 'DELETE',
      url: `/api/loops/${loop.id}/updates/${update!.id}`,
      headers: { cookie: owner.cookie },
    });
    expect(res.statusCode).toBe(200);
    const storage = env.t.app.ctx.storage;
    for (const key of keys) expect(await storage.get(key)).toBeNull();
    expect(storedFiles().length).toBe(before);
    for (const m of update!.media) expect((await env.t.app.inject({ url: `/media/${m.storageKey}` })).statusCode).toBe(404);
  });

  it.each([
    [
      'a zip named .mp4',
      () => Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(64)]),
      'video/mp4',
      CLIP_REFUSALS.unreadable,
    ],
    ['a 0-byte file', () => Buffer.alloc(0), 'audio/amr', CLIP_REFUSALS.empty],
    ['a 2-hour voice memo', () => amrMemo(7200), 'audio/amr', CLIP_REFUSALS.tooLong('audio', 300)],
    ['a truncated video', () => movVideo({ seconds: 2 }).subarray(0, 20_000), 'video/quicktime', CLIP_REFUSALS.damaged],
    [
      'a playlist pointing at file:///etc/passwd',
      () => Buffer.from('#EXTM3U\n#EXTINF:1,\nfile:///etc/passwd\n#EXT-X-ENDLIST\n'),
      'video/mp4',
      CLIP_REFUSALS.unreadable,
    ],
  ])(
    '%s: the text is still shared, the reply says what went wrong and what to send, nothing half stored',
    async (_name, make, contentType, reason) => {
      const person = await createPerson(db(), { firstName: 'Bo' });
      const loop = await createLoop(db(), { name: 'Family', memberIds: [person.id] });
      const before = storedFiles().length;
      const url = env.fake.addMedia(mediaPath(), make(), contentType);
      await post(mmsParams({ accountSid: env.fake.accountSid, from: person.phoneNumber, body: 'Listen', media: [{ url, contentType }] }));
      await sweepUntilIdle(env.t.app.ctx);
      const [update] = await updatesOf(db(), loop.id);
      expect(update).toMatchObject({ content: 'Listen', media: [] });
      expect((await textsTo(db(), person.phoneNumber))[0]?.body).toBe(
        `Thanks Bo! Your update went to "Family". Your voice memo or video couldn't be saved: ${reason}.`,
      );
      expect(storedFiles().length).toBe(before);
      expectNothingLeft();
    },
  );

  it('a voice memo alone that cannot be kept: no update, a reply that says why', async () => {
    const person = await createPerson(db(), { firstName: 'Cy', messagingPreference: 'whatsapp' });
    const loop = await createLoop(db(), { name: 'Choir', memberIds: [person.id] });
    const url = env.fake.addMedia(mediaPath(), Buffer.from('not audio at all'), 'audio/ogg');
    await post({
      ...whatsappParams({ accountSid: env.fake.accountSid, from: person.phoneNumber, body: '' }),
      NumMedia: '1',
      MediaUrl0: url,
      MediaContentType0: 'audio/ogg',
    });
    await sweepUntilIdle(env.t.app.ctx);
    expect(await updatesOf(db(), loop.id)).toEqual([]);
    expect((await textsTo(db(), person.phoneNumber))[0]?.body).toBe(
      `Your voice memo or video couldn't be saved: ${CLIP_REFUSALS.unreadable}.`,
    );
  });
});
