// `npm run bench -- media`: voice memos and videos through the real server. Makes 20
// voice memos of 60 s (10 Ogg/Opus by Debian's ffmpeg from lavfi's sine; 10 AMR-NB written frame
// by frame, because Debian's ffmpeg has no AMR encoder: see amrMemo) and 5 videos of 30 s at 1080p
// (H.264 + AAC from lavfi's testsrc), and serves them from a fake Twilio media host on 127.0.0.1.
// Signed Twilio webhooks bring them in (MediaUrl0, https://www.twilio.com/docs/messaging/guides/webhook-request):
//   1. alone, one after another: an Ogg memo, an AMR memo, a video (the time until each is ready,
//      and the CPU seconds ffmpeg and the server spent per minute of media);
//   2. together: all 25 at once, with 10 texts of a 12 MP phone photo, while plain texts keep
//      arriving (5 a second): the acknowledgement latency of every webhook, the time until each
//      clip is ready under that load, and the peak RSS of the server process.
// "Ready" is from the webhook's stored row to the update stored with its converted clip (the
// row's own times). Needs PostgreSQL (BENCH_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/postgres)
// and ffmpeg on PATH. Every wait is bounded; the server and any ffmpeg it left are stopped by pid.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import twilio from 'twilio';
import { openDatabase } from '../../apps/server/src/db/client';
import { amrMemo } from '../../apps/server/test/helpers/clips';
import { startFakeTwilio, type FakeTwilio } from '../../apps/server/test/helpers/fake-twilio';
import { startServer, type ServerProcess } from '../../apps/server/test/helpers/server-process';
import { phonePhoto } from '../photos/phone-photo';
import { createScratchDatabase, type ScratchDatabase } from '../scratch-database';
import { SERVER_NODE_ARGS } from '../server-node-args';

const POSTGRES = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const WEBHOOK = '/api/webhooks/twilio/messages';
const MEMOS = 20;
const MEMO_SECONDS = 60;
const VIDEOS = 5;
const VIDEO_SECONDS = 30;
const PHOTOS = 10;
/** Plain texts per second while the media are converted. */
const TEXT_RATE = 5;
/** The longest any phase waits for the worker. */
const WAIT_LIMIT_S = Number(process.env.BENCH_WAIT_LIMIT_S ?? 400);
const TARGETS = { videoReadyS: 30, memoReadyS: 3, rssMb: 512, ackMs: 1000 };

type Kind = 'ogg' | 'amr' | 'video' | 'photo' | 'text';
interface Sent {
  sid: string;
  kind: Kind;
  ackMs: number;
  status: number;
}

/** Runs Debian's ffmpeg with an argument list (never a shell). */
function ffmpeg(args: string[]): void {
  const result = spawnSync('ffmpeg', ['-nostdin', '-hide_banner', '-v', 'error', '-y', ...args], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`ffmpeg failed: ${result.stderr}`);
}

function hasAmrEncoder(): boolean {
  return /amr_nb|libopencore_amrnb/.test(spawnSync('ffmpeg', ['-hide_banner', '-encoders'], { encoding: 'utf8' }).stdout ?? '');
}

interface Fixtures {
  ogg: Buffer[];
  amr: Buffer[];
  video: Buffer[];
  photo: Buffer[];
}

async function makeFixtures(dir: string): Promise<Fixtures> {
  const started = performance.now();
  const ogg: Buffer[] = [];
  for (let n = 0; n < MEMOS / 2; n++) {
    const out = path.join(dir, `memo-${n}.ogg`);
    ffmpeg(['-f', 'lavfi', '-i', `sine=frequency=${300 + n * 20}:duration=${MEMO_SECONDS}`, '-c:a', 'libopus', '-b:a', '24k', out]);
    ogg.push(readFileSync(out));
  }
  const amrEncoder = hasAmrEncoder();
  const amr: Buffer[] = [];
  for (let n = 0; n < MEMOS / 2; n++) {
    if (amrEncoder) {
      const out = path.join(dir, `memo-${n}.amr`);
      ffmpeg([
        '-f',
        'lavfi',
        '-i',
        `sine=frequency=${300 + n * 20}:duration=${MEMO_SECONDS}`,
        '-ar',
        '8000',
        '-ac',
        '1',
        '-c:a',
        'amr_nb',
        out,
      ]);
      amr.push(readFileSync(out));
    } else {
      amr.push(amrMemo(MEMO_SECONDS));
    }
  }
  const video: Buffer[] = [];
  for (let n = 0; n < VIDEOS; n++) {
    const out = path.join(dir, `video-${n}.mp4`);
    // As a phone sends it by MMS: H.264 + AAC, 1080p, 30 fps, well under 5 MB.
    ffmpeg([
      '-f',
      'lavfi',
      '-i',
      `testsrc=size=1920x1080:rate=30:duration=${VIDEO_SECONDS}:decimals=${n % 3}`,
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=${440 + n * 50}:duration=${VIDEO_SECONDS}`,
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-crf',
      '28',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-b:a',
      '96k',
      '-shortest',
      '-f',
      'mp4',
      out,
    ]);
    video.push(readFileSync(out));
  }
  const raw = Buffer.alloc(4032 * 3024 * 3);
  const photo: Buffer[] = [];
  for (let n = 0; n < PHOTOS; n++) photo.push(await phonePhoto(n, raw));
  const mb = (list: Buffer[]) => (list.reduce((s, b) => s + b.length, 0) / list.length / 1024 / 1024).toFixed(2);
  console.log(
    `Made the media in ${((performance.now() - started) / 1000).toFixed(0)} s: ${ogg.length} Ogg/Opus (${mb(ogg)} MB each), ` +
      `${amr.length} AMR-NB (${mb(amr)} MB each, ${amrEncoder ? "ffmpeg's encoder" : 'frames written by hand: this ffmpeg has no AMR encoder'}), ` +
      `${video.length} videos (${mb(video)} MB each), ${photo.length} photos 4032x3024 (${mb(photo)} MB each)`,
  );
  return { ogg, amr, video, photo };
}

/** 60 members of 6 Loops, phones +14155550000..59: seeding is not what is measured. */
async function seed(databaseUrl: string): Promise<void> {
  const database = await openDatabase({ databaseUrl });
  try {
    const statements = [
      `insert into users (first_name, last_name, phone_number) select 'Member', 'No. ' || g, '+1415555' || lpad(g::text, 4, '0') from generate_series(0, 59) g`,
      `insert into loops (name, creator_id) select 'Family ' || g, g * 10 + 1 from generate_series(0, 5) g`,
      `insert into members (loop_id, user_id, status, confirmed_at) select (u.id - 1) / 10 + 1, u.id, 'active', now() from users u`,
    ];
    for (const statement of statements) await database.db.execute(sql.raw(statement));
  } finally {
    await database.close();
  }
}

/** Posts one signed inbound webhook as Twilio would and times the acknowledgement. */
async function post(
  server: ServerProcess,
  fake: FakeTwilio,
  kind: Kind,
  from: number,
  media?: { url: string; contentType: string },
): Promise<Sent> {
  const sid = `${media ? 'MM' : 'SM'}${randomBytes(16).toString('hex')}`;
  const params: Record<string, string> = {
    MessageSid: sid,
    SmsMessageSid: sid,
    AccountSid: fake.accountSid,
    From: `+1415555${String(from).padStart(4, '0')}`,
    To: '+15005550006',
    Body: media ? '' : `Plain text ${sid.slice(-6)}`,
    NumMedia: media ? '1' : '0',
    ApiVersion: '2010-04-01',
    ...(media ? { MediaUrl0: media.url, MediaContentType0: media.contentType } : {}),
  };
  const signature = twilio.getExpectedTwilioSignature(fake.authToken, `${server.url}${WEBHOOK}`, params);
  const started = performance.now();
  const response = await fetch(`${server.url}${WEBHOOK}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
    body: new URLSearchParams(params).toString(),
    signal: AbortSignal.timeout(30_000),
  });
  await response.arrayBuffer();
  return { sid, kind, ackMs: performance.now() - started, status: response.status };
}

interface Row {
  sid: string;
  status: string;
  readyS: number | null;
  clips: number;
  photos: number;
}

/** Each text's state, the seconds from its row to its update, and what its update kept. */
async function rows(client: pg.Client, sids: string[]): Promise<Row[]> {
  const { rows: found } = await client.query<Row>(
    `select m.provider_message_id as sid, m.status,
       case when m.status = 'processed' then extract(epoch from m.updated_at - m.created_at)::float8 end as "readyS",
       (select count(*) from updates u join media d on d.update_id = u.id where u.message_id = m.id and (d.content_type like 'audio/%' or d.content_type like 'video/%'))::int as clips,
       (select count(*) from updates u join media d on d.update_id = u.id where u.message_id = m.id and d.content_type like 'image/%')::int as photos
     from messages m where m.direction = 'inbound' and m.provider_message_id = any($1)`,
    [sids],
  );
  return found;
}

/** Until every one of `sids` is handled (processed, ignored or failed), at most WAIT_LIMIT_S. */
async function waitHandled(client: pg.Client, sids: string[], during?: () => void): Promise<Row[]> {
  const until = performance.now() + WAIT_LIMIT_S * 1000;
  for (;;) {
    during?.();
    const found = await rows(client, sids);
    const done = found.filter((r) => r.status !== 'received' && r.status !== 'processing');
    if (done.length === sids.length || performance.now() > until) return found;
    await sleep(100);
  }
}

/** CPU seconds of a process and of its children it has waited for (ffmpeg), from /proc (Linux). */
function cpuSeconds(pid: number): { own: number; children: number } {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    const tick = (i: number) => Number(fields[i]) / 100;
    return { own: tick(11) + tick(12), children: tick(13) + tick(14) };
  } catch {
    return { own: 0, children: 0 };
  }
}

/** A process's current and peak resident memory in MB (VmRSS, VmHWM). */
function memoryMb(pid: number): { rss: number; peak: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
    return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
  } catch {
    return { rss: 0, peak: 0 };
  }
}

/** The server's child processes now (ffmpeg, the HEIC worker), by pid. */
function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8')
        .split(' ')
        .filter((p) => p.trim() !== '')
        .map(Number),
    );
  } catch {
    return [];
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
};
const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');

async function main(): Promise<void> {
  if (spawnSync('ffmpeg', ['-version']).error) throw new Error('ffmpeg is not on PATH (apt-get install ffmpeg)');
  const work = mkdtempSync(path.join(tmpdir(), 'loop-bench-media-'));
  let scratch: ScratchDatabase | null = null;
  const fake = await startFakeTwilio();
  let server: ServerProcess | null = null;
  const seenChildren = new Set<number>();
  let client: pg.Client | null = null;
  try {
    const fixtures = await makeFixtures(work);
    scratch = await createScratchDatabase(POSTGRES);
    const { url } = scratch;
    await seed(url);
    client = new pg.Client({ connectionString: url });
    await client.connect();
    const serve = (kind: string, n: number, bytes: Buffer, contentType: string) => ({
      url: fake.addMedia(`/2010-04-01/Accounts/${fake.accountSid}/Messages/MM${kind}${n}/Media/ME${kind}${n}`, bytes, contentType),
      contentType,
    });
    const media = {
      ogg: fixtures.ogg.map((b, n) => serve('ogg', n, b, 'audio/ogg')),
      amr: fixtures.amr.map((b, n) => serve('amr', n, b, 'audio/amr')),
      video: fixtures.video.map((b, n) => serve('video', n, b, 'video/mp4')),
      photo: fixtures.photo.map((b, n) => serve('photo', n, b, 'image/jpeg')),
    };

    console.log('Starting the server (PostgreSQL)...');
    server = await startServer(
      {
        DATABASE_URL: url,
        DATA_DIR: scratch.dataDir,
        TWILIO_ACCOUNT_SID: fake.accountSid,
        TWILIO_AUTH_TOKEN: fake.authToken,
        TWILIO_FROM_NUMBER: '+15005550006',
        TWILIO_API_BASE_URL: fake.url,
        SEND_RATE_PER_SECOND: '0',
      },
      { nodeArgs: SERVER_NODE_ARGS },
    );
    const pid = server.child.pid ?? 0;
    const running = server;
    let peakWithChildren = 0;
    const sample = () => {
      const children = childrenOf(pid);
      children.forEach((c) => seenChildren.add(c));
      const total = memoryMb(pid).rss + children.reduce((sum, c) => sum + memoryMb(c).rss, 0);
      peakWithChildren = Math.max(peakWithChildren, total);
    };
    const sampler = setInterval(sample, 100);

    // 1. Alone: each kind by itself, one after another.
    const alone: { kind: Kind; readyS: number; cpuS: number; minutes: number }[] = [];
    for (const [kind, item, minutes] of [
      ['ogg', media.ogg[0], MEMO_SECONDS / 60],
      ['amr', media.amr[0], MEMO_SECONDS / 60],
      ['video', media.video[0], VIDEO_SECONDS / 60],
    ] as const) {
      const before = cpuSeconds(pid);
      const sent = await post(running, fake, kind, alone.length, item);
      const [row] = await waitHandled(client, [sent.sid]);
      await sleep(200); // ffmpeg reaped: its CPU is in the server's children's time.
      const after = cpuSeconds(pid);
      if (row?.clips !== 1) throw new Error(`the ${kind} was not kept: ${JSON.stringify(row)}\n${running.output().slice(-2000)}`);
      alone.push({ kind, readyS: row.readyS ?? Number.NaN, cpuS: after.own - before.own + after.children - before.children, minutes });
    }

    // 2. Together: 25 clips and 10 photo texts at once, plain texts arriving all the while.
    console.log(`All at once: ${MEMOS} voice memos, ${VIDEOS} videos, ${PHOTOS} photo texts, and ${TEXT_RATE} plain texts/s...`);
    const started = performance.now();
    const mediaSends = [
      ...media.ogg.map((m, n) => post(running, fake, 'ogg', 3 + n, m)),
      ...media.amr.map((m, n) => post(running, fake, 'amr', 13 + n, m)),
      ...media.video.map((m, n) => post(running, fake, 'video', 23 + n, m)),
      ...media.photo.map((m, n) => post(running, fake, 'photo', 28 + n, m)),
    ];
    const texts: Promise<Sent>[] = [];
    let n = 0;
    const ticker = setInterval(() => texts.push(post(running, fake, 'text', 38 + (n++ % 22))), 1000 / TEXT_RATE);
    let sentMedia: Sent[];
    let together: Row[];
    try {
      sentMedia = await Promise.all(mediaSends);
      together = await waitHandled(
        client,
        sentMedia.map((s) => s.sid),
      );
    } finally {
      clearInterval(ticker);
    }
    const wallS = (performance.now() - started) / 1000;
    const sentTexts = await Promise.all(texts);
    const textRows = await waitHandled(
      client,
      sentTexts.map((s) => s.sid),
    );
    clearInterval(sampler);
    sample();
    const serverMb = memoryMb(pid).peak;

    // Results.
    const byKind = (kind: Kind) => {
      const sids = new Set(sentMedia.filter((s) => s.kind === kind).map((s) => s.sid));
      return together.filter((r) => sids.has(r.sid));
    };
    const ready = (list: Row[]) => list.map((r) => r.readyS ?? Number.POSITIVE_INFINITY);
    const acks = [...sentMedia, ...sentTexts];
    const ackMs = acks.map((s) => s.ackMs);
    const failedAcks = acks.filter((s) => s.status < 200 || s.status > 299).length;
    console.log(
      `\nmedia: ${cpus().length} CPUs, load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} at the end, 127.0.0.1\n`,
    );
    console.log('1. Alone, one after another (ready = webhook stored -> update with the converted clip):');
    console.table(
      alone.map((a) => ({
        file:
          a.kind === 'video'
            ? `video ${VIDEO_SECONDS} s 1080p H.264`
            : `voice memo ${MEMO_SECONDS} s ${a.kind === 'ogg' ? 'Ogg/Opus' : 'AMR-NB'}`,
        'ready s': a.readyS.toFixed(2),
        'CPU s (ffmpeg + server)': a.cpuS.toFixed(2),
        'wall s per minute of media': (a.readyS / a.minutes).toFixed(2),
        'CPU s per minute of media': (a.cpuS / a.minutes).toFixed(2),
      })),
    );
    console.log(`2. All at once (${wallS.toFixed(0)} s until every clip and photo was handled):`);
    console.table(
      (['ogg', 'amr', 'video', 'photo'] as const).map((kind) => {
        const list = byKind(kind);
        return {
          kind,
          sent: list.length,
          kept: list.reduce((s, r) => s + (kind === 'photo' ? r.photos : r.clips), 0),
          'ready p50 s': percentile(ready(list), 50).toFixed(1),
          'ready max s': Math.max(...ready(list)).toFixed(1),
        };
      }),
    );
    const memoAlone = Math.max(...alone.filter((a) => a.kind !== 'video').map((a) => a.readyS));
    const videoAlone = alone.find((a) => a.kind === 'video')?.readyS ?? Number.NaN;
    const memoLoaded = Math.max(...ready([...byKind('ogg'), ...byKind('amr')]));
    const videoLoaded = Math.max(...ready(byKind('video')));
    const textsHandled = textRows.filter((r) => r.status === 'processed').length;
    const textReady = ready(textRows);
    console.log('Against the targets (2 cores):');
    console.table([
      {
        figure: '30 s 1080p video ready, alone',
        value: `${videoAlone.toFixed(1)} s`,
        target: `< ${TARGETS.videoReadyS} s`,
        '': verdict(videoAlone < TARGETS.videoReadyS),
      },
      {
        figure: '30 s 1080p video ready, all at once (slowest of 5)',
        value: `${videoLoaded.toFixed(1)} s`,
        target: `< ${TARGETS.videoReadyS} s`,
        '': verdict(videoLoaded < TARGETS.videoReadyS),
      },
      {
        figure: '60 s voice memo ready, alone',
        value: `${memoAlone.toFixed(2)} s`,
        target: `< ${TARGETS.memoReadyS} s`,
        '': verdict(memoAlone < TARGETS.memoReadyS),
      },
      {
        figure: '60 s voice memo ready, all at once (slowest of 20)',
        value: `${memoLoaded.toFixed(1)} s`,
        target: `< ${TARGETS.memoReadyS} s`,
        '': verdict(memoLoaded < TARGETS.memoReadyS),
      },
      {
        figure: 'peak RSS of the Loop process (VmHWM)',
        value: `${serverMb.toFixed(0)} MB`,
        target: `< ${TARGETS.rssMb} MB`,
        '': verdict(serverMb < TARGETS.rssMb),
      },
      {
        figure: `webhook ack p99 while converting (${acks.length} webhooks)`,
        value: `${percentile(ackMs, 99).toFixed(0)} ms`,
        target: `< ${TARGETS.ackMs} ms`,
        '': verdict(percentile(ackMs, 99) < TARGETS.ackMs),
      },
      {
        figure: 'webhook ack max while converting',
        value: `${Math.max(...ackMs).toFixed(0)} ms`,
        target: `< ${TARGETS.ackMs} ms`,
        '': verdict(Math.max(...ackMs) < TARGETS.ackMs),
      },
    ]);
    console.log(
      `Also: peak RSS of the server with its ffmpeg children (sampled every 100 ms) ${peakWithChildren.toFixed(0)} MB; ` +
        `${failedAcks} webhooks not answered 2xx; plain texts handled ${textsHandled}/${sentTexts.length}, ` +
        `webhook -> update p50 ${percentile(textReady, 50).toFixed(1)} s, max ${Math.max(...textReady).toFixed(1)} s ` +
        "(a sender's video or memo holds up only that sender's texts, decision 0016).",
    );
  } finally {
    await server?.stop();
    // Any ffmpeg the server left behind: by the pids seen as its children, only if still ffmpeg.
    for (const child of seenChildren) {
      try {
        if (readFileSync(`/proc/${child}/cmdline`, 'utf8').includes('ffmpeg')) process.kill(child, 'SIGKILL');
      } catch {
        // Gone.
      }
    }
    await client?.end().catch(() => {});
    await fake.close();
    await scratch?.drop().catch(() => {});
    if (existsSync(work)) rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
