/**
 * The photo formats Loop takes in. Every one is converted by the photo pipeline (media/photo.ts)
 * to WebP sizes; what is stored and served is always `image/webp`, never these bytes.
 */
export const IMAGE_TYPES = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'image/heic',
  'image/avif',
  'image/tiff',
  'image/bmp',
] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];

/** The largest photo we copy or accept. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** Named in replies and errors. */
export const IMAGE_TYPE_NAMES = 'JPEG, PNG, HEIC, GIF, WebP, TIFF or BMP';

/**
 * The image type the bytes really are, from their first bytes, or null. What we accept is decided
 * by this, never by a sender's claim: an SVG or HTML file can never be stored as a "photo".
 */
export function sniffImageType(bytes: Buffer): ImageType | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  const head = bytes.subarray(0, 12).toString('latin1');
  if (head.startsWith('GIF87a') || head.startsWith('GIF89a')) return 'image/gif';
  if (head.startsWith('RIFF') && head.slice(8, 12) === 'WEBP') return 'image/webp';
  if (head.slice(4, 8) === 'ftyp') {
    const brand = head.slice(8, 12);
    if (/^(avif|avis)$/.test(brand)) return 'image/avif';
    if (/^(heic|heix|mif1|msf1|heim|heis|hevc|hevx|heif)$/.test(brand)) return 'image/heic';
  }
  if (head.startsWith('II*\0') || head.startsWith('MM\0*')) return 'image/tiff';
  // "BM", then a header size we know (12: OS/2, 40..124: Windows) at offset 14.
  if (head.startsWith('BM') && bytes.length >= 26 && [12, 40, 52, 56, 108, 124].includes(bytes.readUInt32LE(14))) return 'image/bmp';
  return null;
}
