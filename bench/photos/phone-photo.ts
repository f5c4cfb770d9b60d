import sharp from 'sharp';

export const PHONE_WIDTH = 4032;
export const PHONE_HEIGHT = 3024;

/**
 * Photo number `n` as a 12 MP phone writes it: a smooth scene with fine sensor grain (about
 * 2-3 MB at quality 90), camera EXIF and a GPS position, every other one stored sideways
 * (orientation 6).
 */
export async function phonePhoto(n: number, raw = Buffer.alloc(PHONE_WIDTH * PHONE_HEIGHT * 3)): Promise<Buffer> {
  for (let y = 0; y < PHONE_HEIGHT; y++) {
    for (let x = 0; x < PHONE_WIDTH; x++) {
      const i = (y * PHONE_WIDTH + x) * 3;
      const grain = ((x * 7919 + y * 104729 + n * 31) % 23) - 11;
      raw[i] = Math.max(0, Math.min(255, ((x + n * 40) >> 4) + grain));
      raw[i + 1] = Math.max(0, Math.min(255, ((y + n * 25) >> 4) + grain));
      raw[i + 2] = Math.max(0, Math.min(255, (((x ^ y) + n) >> 5) + 64 + grain));
    }
  }
  return sharp(raw, { raw: { width: PHONE_WIDTH, height: PHONE_HEIGHT, channels: 3 } })
    .jpeg({ quality: 90 })
    .withExif({
      IFD0: { Make: 'Apple', Model: 'iPhone 15 Pro', DateTime: '2026:11:20 10:15:00' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: `51/1 ${n % 60}/1 0/1`, GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 0/1' },
    })
    .withMetadata({ orientation: n % 2 === 0 ? 1 : 6 })
    .toBuffer();
}
