import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { media } from '../db/schema';
import { heavyWork } from './heavy-work';
import { inputOptions, runTool, type FfmpegTools } from './ffmpeg';
import { convertPhoto, type ConvertedPhoto } from './photo';

/** What a voice memo is stored as: AAC in MP4 (.m4a), which every browser and phone plays. */
export const AUDIO_CONTENT_TYPE = 'audio/mp4';
/** What a video is stored as: H.264 + AAC in MP4, at most 720p, moov first (+faststart). */
export const VIDEO_CONTENT_TYPE = 'video/mp4';

export type ClipKind = 'audio' | 'video';

/** A media row of a voice memo or video (any other row is a photo's). */
export function isClipType(contentType: string): boolean {
  return contentType.startsWith('audio/') || contentType.startsWith('video/');
}
/** The same, in SQL. */
export const isClipRow = sql`(${media.contentType} like 'audio/%' or ${media.contentType} like 'video/%')`;

/** A converted voice memo or video: nothing but the sound and pictures (no location, time, camera). */
export interface ConvertedClip {
  kind: ClipKind;
  contentType: typeof AUDIO_CONTENT_TYPE | typeof VIDEO_CONTENT_TYPE;
  bytes: Buffer;
  durationMs: number;
  /** The video's size in pixels; 0 for audio. */
  width: number;
  height: number;
  /** A video's first picture, through the photo pipeline (WebP sizes). */
  poster?: ConvertedPhoto;
  /** A voice memo's words, when it was transcribed (media/transcribe.ts, decision 0024). */
  transcript?: string;
}

export type ClipResult = { ok: true; clip: ConvertedClip } | { ok: false; reason: string };

export interface ClipLimits {
  tools: FfmpegTools;
  /** The largest file taken (MMS 5 MB, WhatsApp 16 MB). */
  maxBytes: number;
  voiceMaxSeconds: number;
  videoMaxSeconds: number;
  /**
   * The most decoding one video may ask for: width x height x frames (frames per second x
   * seconds), in pixels (config.ts: VIDEO_DECODE_BUDGET_MEGAPIXELS, decision 0032).
   */
  videoPixelBudget: number;
  timeoutMs: number;
}

/** 1:50 */
const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(Math.round(seconds % 60)).padStart(2, '0')}`;

const minutes = (seconds: number) => (seconds % 60 === 0 ? `${seconds / 60} minute${seconds === 60 ? '' : 's'}` : `${seconds} seconds`);

/** Why a voice memo or video was refused, in words for the person who sent it, with what to send instead. */
export const CLIP_REFUSALS = {
  empty: 'it was empty (0 bytes)',
  tooLarge: (maxBytes: number) => `it is larger than ${Math.round(maxBytes / (1024 * 1024))} MB (send a shorter one)`,
  unreadable: "it isn't a voice memo or video Loop can read (send MP4, MOV, 3GP, M4A, MP3, AMR or Ogg)",
  damaged: 'it is damaged or cut off (send it again)',
  tooLong: (kind: ClipKind, seconds: number) =>
    kind === 'audio'
      ? `the voice memo is longer than ${minutes(seconds)} (send a shorter one)`
      : `the video is longer than ${minutes(seconds)} (send a shorter one)`,
  timedOut: 'it took too long to convert (send a shorter one)',
  /** Resolution x frame rate x length past the budget: what would fit at this size, or a smaller size. */
  tooMuchWork: (video: { width: number; height: number; fps: number; seconds: number }, fitsSeconds: number) =>
    `the video is too big to convert: ${video.width}x${video.height} at ${Math.round(video.fps)} frames a second for ${clock(video.seconds)} ` +
    (fitsSeconds >= 1
      ? `(send at most ${Math.floor(fitsSeconds)} seconds of it, or film in 1080p)`
      : '(film it in 1080p and send it again)'),
} as const;

/**
 * The container a file really is, from its first bytes, as the name of the ffmpeg demuxer that
 * reads it; null for anything else (a zip, a playlist, a text file). The sender's content type
 * decides nothing.
 */
export function sniffClipFormat(bytes: Buffer): string | null {
  const head = bytes.subarray(0, 16).toString('latin1');
  // ISO base media (MP4, M4A, 3GP, QuickTime): a box type at offset 4.
  if (/^(ftyp|moov|mdat|wide|free|skip)$/.test(head.slice(4, 8))) return 'mov';
  if (head.startsWith('#!AMR')) return 'amr';
  if (head.startsWith('OggS')) return 'ogg';
  if (head.startsWith('ID3')) return 'mp3';
  if (head.startsWith('fLaC')) return 'flac';
  if (head.startsWith('caff')) return 'caf';
  if (head.startsWith('RIFF') && head.slice(8, 12) === 'WAVE') return 'wav';
  if (bytes.length >= 4 && bytes.readUInt32BE(0) === 0x1a45dfa3) return 'matroska';
  if (bytes.length >= 2 && bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0) {
    // ADTS AAC (layer bits 00) or an MPEG audio frame (MP3).
    return ((bytes[1] ?? 0) & 0x06) === 0 ? 'aac' : 'mp3';
  }
  return null;
}

interface ProbedStream {
  codec_type?: string;
  width?: number;
  height?: number;
  r_frame_rate?: string;
  avg_frame_rate?: string;
  /** Frames the container lists (MP4, MOV, 3GP: from its sample table, without decoding). */
  nb_frames?: string;
  disposition?: { attached_pic?: number };
}

interface Probe {
  streams?: ProbedStream[];
  format?: { duration?: string };
}

/**
 * Metadata (location, creation time, camera), chapters, subtitles and data tracks dropped; no
 * encoder version or time written. What remains is the codec's own fixed name ("Lavc libx264").
 */
const STRIP = [
  '-map_metadata',
  '-1',
  '-map_chapters',
  '-1',
  '-sn',
  '-dn',
  '-fflags',
  '+bitexact',
  '-flags:a',
  '+bitexact',
  '-flags:v',
  '+bitexact',
];
/** The longer side at most 1280, the shorter at most 720 (720p either way up), even sizes for H.264. */
const SCALE_720P =
  "scale=w='if(gte(iw,ih),min(1280,iw),min(720,iw))':h='if(gte(iw,ih),min(720,ih),min(1280,ih))'" +
  ':force_original_aspect_ratio=decrease:force_divisible_by=2,format=yuv420p';

/**
 * The voice memo and video pipeline: the bytes are sniffed, probed and converted by ffmpeg under
 * the shared heavy-work limit (one per core, one thread each), in a folder of their own that is
 * removed afterwards whatever happens (the original is never kept). A video's poster goes through
 * the photo pipeline.
 */
export async function convertClip(bytes: Buffer, limits: ClipLimits): Promise<ClipResult> {
  if (bytes.length === 0) return { ok: false, reason: CLIP_REFUSALS.empty };
  if (bytes.length > limits.maxBytes) return { ok: false, reason: CLIP_REFUSALS.tooLarge(limits.maxBytes) };
  const format = sniffClipFormat(bytes);
  if (!format) return { ok: false, reason: CLIP_REFUSALS.unreadable };
  const converted = await withFolder(async (dir) => {
    const input = join(dir, 'original');
    await writeFile(input, bytes);
    // The header first, outside the heavy-work queue: a clip refused by its length or its cost
    // is refused in a second, even while every slot is busy.
    const plan = await planConversion(input, format, limits);
    if (!plan.ok) return plan;
    // Voice memos are short work and go first.
    return heavyWork.run(() => transcode(dir, input, format, plan, limits), { soon: plan.kind === 'audio' });
  });
  if (!converted.ok || converted.clip.kind === 'audio' || !converted.posterPng) return converted;
  const { posterPng, clip } = converted;
  const poster = await convertPhoto(posterPng);
  if (!poster.ok) return { ok: false, reason: CLIP_REFUSALS.damaged };
  return { ok: true, clip: { ...clip, poster: poster.photo } };
}

interface ConversionPlan {
  ok: true;
  kind: ClipKind;
  maxSeconds: number;
  /** ffmpeg stops reading the input after this many seconds (-t). */
  readSeconds: number;
  /** Seconds of output past which the video asked for more than the budget (Infinity for audio). */
  budgetSeconds: number;
  video?: { width: number; height: number; fps: number; seconds: number };
}

/**
 * What the header says, before anything is decoded: audio or video, how long, and for a video
 * the work it implies (width x height x frames). A video whose work is past the budget is refused
 * here; one whose header may understate it is read no further than the budget allows, and refused
 * if the output shows it went that far.
 */
async function planConversion(input: string, format: string, limits: ClipLimits): Promise<ConversionPlan | { ok: false; reason: string }> {
  const probed = await probe(limits.tools, input, format, limits.timeoutMs);
  if (!probed) return { ok: false, reason: CLIP_REFUSALS.damaged };
  const video = probed.streams?.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  const audio = probed.streams?.find((s) => s.codec_type === 'audio');
  if (!video && !audio) return { ok: false, reason: CLIP_REFUSALS.unreadable };
  const kind: ClipKind = video ? 'video' : 'audio';
  const maxSeconds = kind === 'audio' ? limits.voiceMaxSeconds : limits.videoMaxSeconds;
  const declaredSeconds = Number(probed.format?.duration);
  if (Number.isFinite(declaredSeconds) && declaredSeconds > maxSeconds)
    return { ok: false, reason: CLIP_REFUSALS.tooLong(kind, maxSeconds) };
  // One second past the limit: a file whose header understates its length is caught on the output.
  const plan: ConversionPlan = { ok: true, kind, maxSeconds, readSeconds: maxSeconds + 1, budgetSeconds: Infinity };
  if (!video) return plan;

  const pixels = (video.width ?? 0) * (video.height ?? 0);
  if (pixels <= 0) return { ok: false, reason: CLIP_REFUSALS.damaged };
  const fps = frameRate(video);
  const seconds = Number.isFinite(declaredSeconds) && declaredSeconds > 0 ? declaredSeconds : NaN;
  const listedFrames = Number(video.nb_frames);
  const frames = Number.isFinite(listedFrames) && listedFrames > 0 ? listedFrames : fps * seconds;
  const budgetSeconds = limits.videoPixelBudget / (pixels * fps);
  const described = { width: video.width ?? 0, height: video.height ?? 0, fps, seconds: Number.isFinite(seconds) ? seconds : frames / fps };
  if (pixels * frames > limits.videoPixelBudget) return { ok: false, reason: CLIP_REFUSALS.tooMuchWork(described, budgetSeconds) };
  return { ...plan, readSeconds: Math.min(plan.readSeconds, budgetSeconds + 1), budgetSeconds, video: described };
}

/**
 * Frames per second, from the header: the average (frames over length) where it is known, else
 * the stream's base rate (which can be a timescale such as 90000 for variable-rate phone videos,
 * so it is trusted only up to 240, slow motion's), else 60.
 */
function frameRate(stream: ProbedStream): number {
  const rate = (text: string | undefined) => {
    const [num = NaN, den = 1] = (text ?? '').split('/').map(Number);
    const value = num / den;
    return Number.isFinite(value) && value > 0 ? value : NaN;
  };
  const average = rate(stream.avg_frame_rate);
  if (!Number.isNaN(average)) return average;
  const base = rate(stream.r_frame_rate);
  return !Number.isNaN(base) && base <= 240 ? base : 60;
}

async function withFolder<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'loop-clip-'));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function transcode(
  dir: string,
  input: string,
  format: string,
  plan: ConversionPlan,
  limits: ClipLimits,
): Promise<{ ok: false; reason: string } | { ok: true; clip: ConvertedClip; posterPng?: Buffer }> {
  const { tools, timeoutMs } = limits;
  const { kind, maxSeconds } = plan;
  const output = join(dir, kind === 'audio' ? 'converted.m4a' : 'converted.mp4');
  const codecs =
    kind === 'audio'
      ? ['-map', '0:a:0', '-vn', '-c:a', 'aac', '-aac_coder', 'fast', '-b:a', '64k']
      : [
          '-map',
          '0:v:0',
          '-map',
          '0:a:0?',
          '-vf',
          SCALE_720P,
          '-c:v',
          'libx264',
          '-preset',
          'veryfast',
          '-crf',
          '26',
          '-c:a',
          'aac',
          '-aac_coder',
          'fast',
          '-b:a',
          '96k',
        ];
  const args = [
    '-nostdin',
    '-hide_banner',
    '-v',
    'error',
    '-xerror',
    '-threads',
    '1',
    ...inputOptions(format),
    '-i',
    input,
    // Past the length limit or the budget by a second: a header that understates either is caught below.
    '-t',
    plan.readSeconds.toFixed(3),
    ...codecs,
    ...STRIP,
    '-movflags',
    '+faststart',
    '-f',
    'mp4',
    output,
  ];
  const run = await runTool(tools.ffmpeg, args, timeoutMs);
  if (run.timedOut) return { ok: false, reason: CLIP_REFUSALS.timedOut };
  if (run.code !== 0) return { ok: false, reason: CLIP_REFUSALS.damaged };

  const result = await probe(tools, output, 'mov', timeoutMs);
  const seconds = Number(result?.format?.duration);
  if (!result || !Number.isFinite(seconds) || seconds <= 0) return { ok: false, reason: CLIP_REFUSALS.damaged };
  if (seconds > maxSeconds + 0.5) return { ok: false, reason: CLIP_REFUSALS.tooLong(kind, maxSeconds) };
  if (plan.video && seconds > plan.budgetSeconds + 0.5)
    return { ok: false, reason: CLIP_REFUSALS.tooMuchWork({ ...plan.video, seconds }, plan.budgetSeconds) };
  const picture = result.streams?.find((s) => s.codec_type === 'video');
  const clip: ConvertedClip = {
    kind,
    contentType: kind === 'audio' ? AUDIO_CONTENT_TYPE : VIDEO_CONTENT_TYPE,
    bytes: await readFile(output),
    durationMs: Math.round(seconds * 1000),
    width: picture?.width ?? 0,
    height: picture?.height ?? 0,
  };
  if (kind === 'audio') return { ok: true, clip };
  if (!picture?.width || !picture.height) return { ok: false, reason: CLIP_REFUSALS.damaged };

  // The poster: a picture from the converted video (already upright and scaled), as PNG for the photo pipeline.
  const posterFile = join(dir, 'poster.png');
  const at = Math.min(1, seconds / 2).toFixed(3);
  const posterRun = await runTool(
    tools.ffmpeg,
    [
      '-nostdin',
      '-hide_banner',
      '-v',
      'error',
      '-threads',
      '1',
      '-ss',
      at,
      ...inputOptions('mov'),
      '-i',
      output,
      '-frames:v',
      '1',
      ...STRIP,
      '-f',
      'image2',
      '-c:v',
      'png',
      posterFile,
    ],
    timeoutMs,
  );
  if (posterRun.code !== 0) return { ok: false, reason: posterRun.timedOut ? CLIP_REFUSALS.timedOut : CLIP_REFUSALS.damaged };
  return { ok: true, clip, posterPng: await readFile(posterFile) };
}

async function probe(tools: FfmpegTools, file: string, format: string, timeoutMs: number): Promise<Probe | null> {
  const run = await runTool(
    tools.ffprobe,
    [
      '-v',
      'error',
      ...inputOptions(format),
      '-show_entries',
      'format=duration:stream=codec_type,width,height,r_frame_rate,avg_frame_rate,nb_frames:stream_disposition=attached_pic',
      '-of',
      'json',
      file,
    ],
    timeoutMs,
  );
  if (run.code !== 0) return null;
  try {
    return JSON.parse(run.stdout) as Probe;
  } catch {
    return null;
  }
}
