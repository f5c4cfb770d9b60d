import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TEST_CACHE_DIR } from './database';

/**
 * A fixture made once per machine: kept in TEST_CACHE_DIR under the hash of the recipe that makes
 * it (ffmpeg's arguments), so later runs read the file instead of encoding it again (decision
 * 0046). Written then renamed, so a test running beside it never reads half a file.
 */
function cachedFixture(recipe: unknown, make: () => Buffer): Buffer {
  const key = createHash('sha256').update(JSON.stringify(recipe)).digest('hex').slice(0, 24);
  const file = path.join(TEST_CACHE_DIR, 'fixtures', key);
  try {
    return readFileSync(file);
  } catch {
    const bytes = make();
    mkdirSync(path.dirname(file), { recursive: true });
    const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(partial, bytes);
    renameSync(partial, file);
    return bytes;
  }
}

/** Where a phone filmed or recorded: the Eiffel Tower, as an iPhone writes it (ISO 6709). */
export const LOCATION = '+48.8584+002.2945/';
const CREATION_TIME = '2024-05-01T10:00:00Z';
const TAGS = [
  '-metadata',
  `location=${LOCATION}`,
  '-metadata',
  `creation_time=${CREATION_TIME}`,
  '-metadata',
  'com.apple.quicktime.make=Apple',
];

/** H.264 at ffmpeg's fastest setting: fixtures are made in a moment. */
const H264_FAST = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'];

/** Runs Debian's ffmpeg (never a shell) on lavfi test sources and returns the file it wrote. */
function ffmpegFixture(args: string[], name: string): Buffer {
  return cachedFixture(['ffmpeg', args, name], () => runFfmpeg(args, name));
}

function runFfmpeg(args: string[], name: string): Buffer {
  const dir = mkdtempSync(path.join(tmpdir(), 'loop-fixture-'));
  try {
    const out = path.join(dir, name);
    execFileSync('ffmpeg', ['-nostdin', '-hide_banner', '-v', 'error', '-y', ...args, out], { stdio: 'ignore' });
    return readFileSync(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** An iPhone-style voice memo: AAC in MP4 (audio/mp4), with a location and a creation time. */
export const m4aMemo = (seconds = 3) =>
  ffmpegFixture(['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`, ...TAGS, '-c:a', 'aac', '-f', 'mp4'], 'memo.m4a');

/** A call's recording as Twilio serves it: WAV, 16-bit PCM, 8 kHz mono (https://www.twilio.com/docs/voice/api/recording#fetch-a-recording-media-file). */
export const wavRecording = (seconds = 2) =>
  ffmpegFixture(
    ['-f', 'lavfi', '-i', `sine=frequency=300:duration=${seconds}`, '-ac', '1', '-ar', '8000', '-c:a', 'pcm_s16le', '-f', 'wav'],
    'call.wav',
  );

/** A WhatsApp voice note: Opus in Ogg (audio/ogg), with a location comment. */
export const oggMemo = (seconds = 3) =>
  ffmpegFixture(
    ['-f', 'lavfi', '-i', `sine=frequency=330:duration=${seconds}`, ...TAGS, '-c:a', 'libopus', '-b:a', '24k', '-f', 'ogg'],
    'memo.ogg',
  );

/** An MP3 (audio/mpeg). */
export const mp3Memo = (seconds = 3) =>
  ffmpegFixture(['-f', 'lavfi', '-i', `sine=frequency=550:duration=${seconds}`, ...TAGS, '-c:a', 'libmp3lame', '-f', 'mp3'], 'memo.mp3');

/** An iPhone video: QuickTime, H.264 + AAC, with the place it was filmed and the camera. */
export const movVideo = (options: { seconds?: number; width?: number; height?: number } = {}) => {
  const { seconds = 2, width = 1920, height = 1080 } = options;
  return ffmpegFixture(
    [
      '-f',
      'lavfi',
      '-i',
      `testsrc=size=${width}x${height}:rate=30:duration=${seconds}`,
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=440:duration=${seconds}`,
      ...TAGS,
      ...H264_FAST,
      '-c:a',
      'aac',
      '-shortest',
      '-f',
      'mov',
    ],
    'video.mov',
  );
};

/**
 * A small file that asks for a great deal of decoding, as the attack did (a 156 KB 3840x2160
 * video at 60 frames a second for 110 s): one second of a plain colour at that size and rate,
 * encoded once, then repeated by stream copy (no encoding) to the length asked. Its header tells
 * the truth: every frame is there to decode.
 */
export function heavyVideo(options: { width: number; height: number; fps: number; seconds: number }): Buffer {
  return cachedFixture(['heavyVideo', options.width, options.height, options.fps, options.seconds], () => makeHeavyVideo(options));
}

function makeHeavyVideo(options: { width: number; height: number; fps: number; seconds: number }): Buffer {
  const second = ffmpegFixture(
    ['-f', 'lavfi', '-i', `color=c=blue:size=${options.width}x${options.height}:rate=${options.fps}:duration=1`, ...H264_FAST, '-f', 'mp4'],
    'second.mp4',
  );
  const dir = mkdtempSync(path.join(tmpdir(), 'loop-fixture-'));
  try {
    writeFileSync(path.join(dir, 'second.mp4'), second);
    const out = path.join(dir, 'video.mp4');
    execFileSync(
      'ffmpeg',
      ['-nostdin', '-v', 'error', '-y', '-stream_loop', String(options.seconds - 1), '-i', path.join(dir, 'second.mp4'), '-c', 'copy', out],
      { stdio: 'ignore' },
    );
    return readFileSync(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * An Android voice memo (audio/amr): Debian's ffmpeg decodes AMR but has no AMR encoder, so the
 * file is written by hand: the "#!AMR\n" magic, then 20 ms frames (RFC 4867 section 5). Mode 0
 * (4.75 kbit/s) frames are 13 bytes, so two hours fit in 4.7 MB, under MMS's 5 MB.
 */
export function amrMemo(seconds = 3): Buffer {
  const frame = Buffer.from([0x04, 0x1c, 0x5a, 0x33, 0x91, 0x0e, 0x77, 0x42, 0xa5, 0x19, 0x6c, 0xd3, 0x28]);
  return Buffer.concat([Buffer.from('#!AMR\n', 'latin1'), ...Array.from({ length: seconds * 50 }, () => frame)]);
}

/** ffprobe's view of a file: its container's and streams' tags, codecs and sizes. */
export function probe(bytes: Buffer): {
  format: { format_name: string; duration: string; tags?: Record<string, string> };
  streams: { codec_type: string; codec_name: string; width?: number; height?: number; tags?: Record<string, string> }[];
  chapters: unknown[];
} {
  const dir = mkdtempSync(path.join(tmpdir(), 'loop-probe-'));
  try {
    const file = path.join(dir, 'file');
    writeFileSync(file, bytes);
    const out = execFileSync('ffprobe', ['-v', 'error', '-show_format', '-show_streams', '-show_chapters', '-of', 'json', file], {
      encoding: 'utf8',
    });
    return JSON.parse(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
