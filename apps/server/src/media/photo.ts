import { Worker } from 'node:worker_threads';
import sharp, { type Sharp, type SharpOptions } from 'sharp';
import { IMAGE_TYPE_NAMES, MAX_IMAGE_BYTES, sniffImageType } from '../storage/image-type';
import { heavyWork } from './heavy-work';

// One libvips thread per image: the shared heavy-work limit decides how many images run at once
// (one per core). No operation cache: every photo is new, and the cache only holds memory.
sharp.concurrency(1);
sharp.cache(false);

/** The widths stored of every photo (never wider than the photo itself). */
export const PHOTO_WIDTHS = [320, 640, 1280] as const;
/** A 48 MP phone photo fits; a decompression bomb (50,000 x 50,000) does not, and is refused before decoding. */
export const MAX_PHOTO_PIXELS = 50_000_000;
export const PHOTO_CONTENT_TYPE = 'image/webp';
const WEBP_QUALITY = 75;

export interface PhotoVariant {
  width: number;
  height: number;
  bytes: Buffer;
}

/** A converted photo: upright, sRGB, no metadata at all, as WebP at each stored width (smallest first). */
export interface ConvertedPhoto {
  width: number;
  height: number;
  variants: PhotoVariant[];
}

export type PhotoResult = { ok: true; photo: ConvertedPhoto } | { ok: false; reason: string };

/** Why a photo was refused, in words for the person who sent it ("One photo couldn't be saved: ..."). */
export const PHOTO_REFUSALS = {
  empty: 'it was empty (0 bytes)',
  tooLarge: 'it is larger than 5 MB',
  notAPhoto: `it isn't a photo (${IMAGE_TYPE_NAMES})`,
  tooManyPixels: `it has too many pixels (more than ${MAX_PHOTO_PIXELS / 1_000_000} megapixels)`,
  damaged: 'it is damaged or cut off',
} as const;

/**
 * The photo pipeline: decodes any accepted format (HEIC through libheif in WebAssembly and BMP in
 * JavaScript, both in a worker thread; the rest in libvips, off the main thread too), checks its size in pixels before decoding, turns it upright by
 * its orientation tag, and writes WebP sizes that carry nothing but the picture: no EXIF, GPS, XMP,
 * ICC or comments. Runs under the shared heavy-work limit.
 */
export async function convertPhoto(bytes: Buffer): Promise<PhotoResult> {
  if (bytes.length === 0) return { ok: false, reason: PHOTO_REFUSALS.empty };
  if (bytes.length > MAX_IMAGE_BYTES) return { ok: false, reason: PHOTO_REFUSALS.tooLarge };
  const type = sniffImageType(bytes);
  if (!type) return { ok: false, reason: PHOTO_REFUSALS.notAPhoto };
  return heavyWork.run(
    async () => {
      try {
        const source = await openImage(bytes, type);
        if ('reason' in source) return { ok: false, reason: source.reason };
        return { ok: true, photo: await writeSizes(source.image) };
      } catch {
        // libvips and the decoders report damage in many words; the sender needs one reason.
        return { ok: false, reason: PHOTO_REFUSALS.damaged };
      }
    },
    { soon: true },
  );
}

const SHARP_OPTIONS: SharpOptions = { limitInputPixels: MAX_PHOTO_PIXELS, failOn: 'warning', sequentialRead: true };

async function openImage(bytes: Buffer, type: string): Promise<{ image: Sharp } | { reason: string }> {
  if (type === 'image/bmp') {
    const { width, height } = bmpSize(bytes);
    if (width * height > MAX_PHOTO_PIXELS) return { reason: PHOTO_REFUSALS.tooManyPixels };
    const bmp = await decodeInThread('bmp', bytes);
    // bmp-ts leaves alpha 0 where a BMP has none (24-bit, and most 32-bit ones): BMPs are opaque here.
    return { image: sharp(bmp.data, { raw: { width: bmp.width, height: bmp.height, channels: 4 } }).removeAlpha() };
  }
  // The header's size, read without decoding: bombs stop here.
  const meta = await sharp(bytes, { ...SHARP_OPTIONS, limitInputPixels: false }).metadata();
  if (!meta.width || !meta.height) return { reason: PHOTO_REFUSALS.damaged };
  if (meta.width * meta.height > MAX_PHOTO_PIXELS) return { reason: PHOTO_REFUSALS.tooManyPixels };
  if (type === 'image/heic') {
    const decoded = await decodeInThread('heic', bytes);
    if (decoded.width * decoded.height > MAX_PHOTO_PIXELS) return { reason: PHOTO_REFUSALS.tooManyPixels };
    return { image: sharp(decoded.data, { raw: { width: decoded.width, height: decoded.height, channels: 4 } }) };
  }
  return { image: sharp(bytes, SHARP_OPTIONS) };
}

async function writeSizes(image: Sharp): Promise<ConvertedPhoto> {
  // Upright, at most the largest width, sRGB; raw pixels keep nothing of the file's metadata.
  const largest = PHOTO_WIDTHS[PHOTO_WIDTHS.length - 1];
  const { data, info } = await image
    .autoOrient()
    .resize({ width: largest, withoutEnlargement: true })
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const raw = { width: info.width, height: info.height, channels: info.channels };
  const widths = [...PHOTO_WIDTHS.filter((w) => w < info.width), info.width];
  const variants: PhotoVariant[] = [];
  for (const width of widths) {
    const { data: out, info: size } = await sharp(data, { raw })
      .resize({ width })
      .webp({ quality: WEBP_QUALITY, effort: 4 })
      .toBuffer({ resolveWithObject: true });
    variants.push({ width: size.width, height: size.height, bytes: out });
  }
  return { width: info.width, height: info.height, variants };
}

/** A BMP's size from its header (height is negative for top-down files). */
function bmpSize(bytes: Buffer): { width: number; height: number } {
  if (bytes.readUInt32LE(14) === 12) return { width: bytes.readUInt16LE(18), height: bytes.readUInt16LE(20) };
  return { width: Math.abs(bytes.readInt32LE(18)), height: Math.abs(bytes.readInt32LE(22)) };
}

/**
 * HEIC (libheif) or BMP (bmp-ts) decoded in a worker thread (decision 0050): the main thread keeps
 * answering requests meanwhile. RGBA pixels, moved back without a copy.
 */
function decodeInThread(kind: 'heic' | 'bmp', bytes: Buffer): Promise<{ width: number; height: number; data: Uint8Array }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./image-decode-thread.mjs', import.meta.url), { workerData: { kind, bytes } });
    worker.once('message', (message: { width: number; height: number; data: Uint8Array } | { error: string }) => {
      if ('error' in message) reject(new Error(message.error));
      else resolve(message);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the ${kind.toUpperCase()} decoder stopped (${code})`)));
  });
}
