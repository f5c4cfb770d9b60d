import { crc32, deflateSync } from 'node:zlib';

/** An RGB image, row by row, 3 bytes a pixel. */
export interface RgbImage {
  width: number;
  height: number;
  pixels: Uint8Array;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed) >>> 0);
  return Buffer.concat([length, typed, crc]);
}

/** A plain 8-bit RGB PNG: enough for the demo's made-up photos, without an image library. */
export function encodePng(image: RgbImage): Buffer {
  const { width, height, pixels } = image;
  const stride = width * 3;
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y += 1) {
    const row = y * (stride + 1);
    // Filter "Sub" (1): neighbouring pixels of a drawing are alike, so the rows deflate well.
    raw[row] = 1;
    for (let x = 0; x < stride; x += 1) {
      const value = pixels[y * stride + x] ?? 0;
      const left = x >= 3 ? (pixels[y * stride + x - 3] ?? 0) : 0;
      raw[row + 1 + x] = (value - left) & 0xff;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
