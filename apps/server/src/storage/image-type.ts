export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/heic'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];

/** The largest photo we copy or accept. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/**
 * The image type the bytes really are, from their first bytes, or null. What we serve is decided
 * by this, never by a sender's claim: an SVG or HTML file can never be stored as a "photo".
 */
export function sniffImageType(bytes: Buffer): ImageType | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  const head = bytes.subarray(0, 12).toString('latin1');
  if (head.startsWith('GIF87a') || head.startsWith('GIF89a')) return 'image/gif';
  if (head.startsWith('RIFF') && head.slice(8, 12) === 'WEBP') return 'image/webp';
  if (head.slice(4, 8) === 'ftyp' && /^(heic|heix|mif1|msf1|heim|heis)$/.test(head.slice(8, 12))) return 'image/heic';
  return null;
}
