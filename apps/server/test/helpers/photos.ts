import { readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { encode as encodeBmp } from 'bmp-ts';
import sharp from 'sharp';

/** What a phone camera writes into a photo: the make, the model, the time and where it was taken. */
export const CAMERA_EXIF = {
  IFD0: { Make: 'Apple', Model: 'iPhone 15 Pro', Software: '17.1', DateTime: '2026:11:20 10:15:00' },
  // GPS IFD (EXIF 2.32, section 4.6.6): 51° 30' N, 0° 7' W.
  IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 0/1' },
};

/** Pixels that differ left to right and top to bottom, so orientation can be checked: red on the left, blue on the right. */
function rawPixels(width: number, height: number): Buffer {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const left = x < width / 2;
      raw[i] = left ? 220 : 20;
      raw[i + 1] = (y * 255) / height;
      raw[i + 2] = left ? 20 : 220;
    }
  }
  return raw;
}

/** A JPEG as a phone writes it: EXIF with camera and GPS, an ICC profile, an XMP packet, and an orientation tag. */
export async function phoneJpeg(options: { width: number; height: number; orientation?: number; quality?: number }): Promise<Buffer> {
  return sharp(rawPixels(options.width, options.height), { raw: { width: options.width, height: options.height, channels: 3 } })
    .jpeg({ quality: options.quality ?? 80 })
    .withExif(CAMERA_EXIF)
    .withIccProfile('p3')
    .withXmp(
      '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" photoshop:City="London"/></rdf:RDF></x:xmpmeta>',
    )
    .withMetadata({ orientation: options.orientation ?? 1 })
    .toBuffer();
}

export async function encodeAs(format: 'png' | 'tiff' | 'gif' | 'webp', width: number, height: number): Promise<Buffer> {
  return sharp(rawPixels(width, height), { raw: { width, height, channels: 3 } })
    .toFormat(format)
    .withExif(CAMERA_EXIF)
    .toBuffer();
}

/** A 24-bit BMP (bmp-ts writes ABGR pixel data). */
export function bmp(width: number, height: number): Buffer {
  const rgb = rawPixels(width, height);
  const data = Buffer.alloc(width * height * 4);
  for (let p = 0; p < width * height; p++) {
    data[p * 4] = 255;
    data[p * 4 + 1] = rgb[p * 3 + 2] ?? 0;
    data[p * 4 + 2] = rgb[p * 3 + 1] ?? 0;
    data[p * 4 + 3] = rgb[p * 3] ?? 0;
  }
  return encodeBmp({ data, width, height, bitPP: 24 }).data;
}

/**
 * An 8-bit RLE-compressed BMP (BI_RLE8, Microsoft's "Bitmap Compression" page:
 * https://learn.microsoft.com/en-us/windows/win32/gdi/bitmap-compression): runs of up to 255
 * pixels of one colour, so a 7000 x 7000 picture (49 MP, under the limit) is about 400 KB.
 */
export function rleBmp(width: number, height: number): Buffer {
  const runs: number[] = [];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x += 255) runs.push(Math.min(255, width - x), (y >> 4) & 255);
    runs.push(0, 0); // end of line
  }
  runs.push(0, 1); // end of bitmap
  const pixels = Buffer.from(runs);
  const palette = Buffer.alloc(1024);
  for (let i = 0; i < 256; i++) palette.writeUInt32LE((i << 16) | (i << 8) | (255 - i), i * 4);
  const header = Buffer.alloc(54);
  header.write('BM', 0, 'latin1');
  header.writeUInt32LE(header.length + palette.length + pixels.length, 2);
  header.writeUInt32LE(header.length + palette.length, 10);
  header.writeUInt32LE(40, 14); // BITMAPINFOHEADER
  header.writeInt32LE(width, 18);
  header.writeInt32LE(height, 22);
  header.writeUInt16LE(1, 26); // planes
  header.writeUInt16LE(8, 28); // bits per pixel
  header.writeUInt32LE(1, 30); // BI_RLE8
  header.writeUInt32LE(pixels.length, 34);
  header.writeUInt32LE(256, 46); // colours used
  return Buffer.concat([header, palette, pixels]);
}

/** The real HEIC fixture (see fixtures/README.md): 120 x 80, EXIF with Apple, iPhone 15 and GPS. */
export function heicFixture(): Buffer {
  return readFileSync(new URL('../fixtures/gps-120x80.heic', import.meta.url));
}

function crc32(bytes: Buffer): number {
  let crc = -1;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ -1) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A decompression bomb: a valid PNG header saying 50,000 x 50,000 (2.5 gigapixels, 7.5 GB of
 * RGB) with a few kilobytes of zlib data that would inflate to the first rows (PNG spec, IHDR).
 */
export function pngBomb(size = 50_000): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  const rows = Buffer.alloc((size * 3 + 1) * 16);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(rows)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

export const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" onload="alert(1)"><rect width="10" height="10"/></svg>',
);

/** Everything a decoded image can still tell about where and with what it was taken. */
export async function metadataOf(bytes: Buffer) {
  const meta = await sharp(bytes).metadata();
  return {
    format: meta.format,
    width: meta.width,
    height: meta.height,
    exif: meta.exif,
    icc: meta.icc,
    xmp: meta.xmp,
    iptc: meta.iptc,
    orientation: meta.orientation,
    comments: meta.comments,
  };
}

/** The colour of one pixel, to check which way up a photo is. */
export async function pixelAt(bytes: Buffer, x: number, y: number): Promise<[number, number, number]> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const i = (y * info.width + x) * 3;
  return [data[i] ?? 0, data[i + 1] ?? 0, data[i + 2] ?? 0];
}
