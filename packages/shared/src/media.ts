import { z } from 'zod';

// Media: any stored file of an update, as pages show it. Its kinds are a photo and a clip (a voice
// memo or video); see the glossary in docs/product.md.

/** A member's photo as every page shows it: stored sizes of one upright, metadata-free picture. */
export const photoSchema = z.object({
  /** /media/{key}: the largest stored size. Each width is at /media/{key}/{width}. */
  url: z.string().describe('/media/{key}: the largest stored size; each width is at /media/{key}/{width}'),
  /** The largest size's pixels: set on <img> so nothing shifts while it loads. */
  width: z.number().int(),
  height: z.number().int(),
  /** The stored widths, smallest first (for example 320, 640, 1280). */
  widths: z.array(z.number().int()).describe('the stored widths, smallest first'),
});
export type Photo = z.output<typeof photoSchema>;

/** The srcset of a photo: every stored width. */
export function photoSrcset(photo: Photo): string {
  return photo.widths.map((w) => `${photo.url}/${w} ${w}w`).join(', ');
}

/** A photo's address at its smallest stored width of at least `min` px (its largest when none is that wide). */
export function photoAtLeast(photo: Photo, min: number): string {
  const width = photo.widths.find((w) => w >= min) ?? photo.widths.at(-1);
  return width === undefined ? photo.url : `${photo.url}/${width}`;
}

/** A member's voice memo or video as every page plays it (decision 0023): AAC or H.264 in MP4. */
export const clipSchema = z.object({
  /** /media/{key}: the converted file, served with Range support. */
  url: z.string().describe('/media/{key}: the converted file (audio/mp4 or video/mp4), served with Range support'),
  kind: z.enum(['audio', 'video']),
  durationMs: z.number().int(),
  /** A video's size in pixels (0 for a voice memo): set on <video> so nothing shifts. */
  width: z.number().int(),
  height: z.number().int(),
  /** A video's poster picture (/media/{key}/{width}, WebP), or null for a voice memo. */
  poster: z.string().nullable().describe("a video's poster picture (/media/{key}/{width}, WebP); null for a voice memo"),
  /**
   * A voice memo's words as transcribed (decision 0024): plain text a member in effect sent, so
   * escaped wherever it is shown. Null when there is none (no endpoint, a failure, a video).
   */
  transcript: z.string().nullable().describe("a voice memo's words as transcribed, plain text; null when there are none"),
});
export type Clip = z.output<typeof clipSchema>;

/** "0:42", "2:05": how long a voice memo or video is, as players show it. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** What a voice memo or video is called beside its player: "Voice memo, 0:42". */
export function clipLabel(clip: Pick<Clip, 'kind' | 'durationMs'>): string {
  return `${clip.kind === 'audio' ? 'Voice memo' : 'Video'}, ${formatDuration(clip.durationMs)}`;
}
