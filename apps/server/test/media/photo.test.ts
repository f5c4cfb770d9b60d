import { monitorEventLoopDelay } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { createWorkLimit, LONG_TASK_PATIENCE_MS } from '../../src/media/heavy-work';
import { convertPhoto, MAX_PHOTO_PIXELS, PHOTO_REFUSALS, type ConvertedPhoto } from '../../src/media/photo';
import { bmp, encodeAs, heicFixture, metadataOf, phoneJpeg, pixelAt, pngBomb, rleBmp, SVG } from '../helpers/photos';

async function converted(bytes: Buffer): Promise<ConvertedPhoto> {
  const result = await convertPhoto(bytes);
  if (!result.ok) throw new Error(`refused: ${result.reason}`);
  return result.photo;
}

/** Nothing but the picture: no EXIF (camera, GPS, time), no XMP, no IPTC, no ICC profile, no comments. */
async function expectBarePicture(bytes: Buffer) {
  const meta = await metadataOf(bytes);
  expect(meta.format).toBe('webp');
  expect(meta).toMatchObject({
    exif: undefined,
    icc: undefined,
    xmp: undefined,
    iptc: undefined,
    orientation: undefined,
    comments: undefined,
  });
  for (const word of ['iPhone', 'Apple', 'GPS', 'London', 'Exif']) expect(bytes.includes(word)).toBe(false);
}

describe('the photo pipeline', () => {
  it('strips EXIF, GPS, XMP and ICC from a phone JPEG and writes WebP sizes of 320, 640 and 1280 px', async () => {
    const original = await phoneJpeg({ width: 2016, height: 1512 });
    const before = await metadataOf(original);
    expect(before.exif?.includes('GPS') || before.exif?.includes('Apple')).toBe(true);
    expect(before.icc).toBeDefined();
    expect(before.xmp).toBeDefined();

    const photo = await converted(original);
    expect(photo).toMatchObject({ width: 1280, height: 960 });
    expect(photo.variants.map((v) => [v.width, v.height])).toEqual([
      [320, 240],
      [640, 480],
      [1280, 960],
    ]);
    for (const variant of photo.variants) {
      await expectBarePicture(variant.bytes);
      expect(await metadataOf(variant.bytes)).toMatchObject({ width: variant.width, height: variant.height });
    }
    // Much lighter than the original, even at the largest size.
    expect(photo.variants[0]!.bytes.length).toBeLessThan(original.length / 10);
  });

  it('turns a photo upright by its orientation tag (6: rotate 90° clockwise) and drops the tag', async () => {
    // Stored sideways, 400 x 200, red on the left: upright it is 200 x 400 with red at the top.
    const photo = await converted(await phoneJpeg({ width: 400, height: 200, orientation: 6 }));
    expect(photo).toMatchObject({ width: 200, height: 400 });
    const largest = photo.variants.at(-1)!.bytes;
    const [topRed, , topBlue] = await pixelAt(largest, 100, 20);
    const [bottomRed, , bottomBlue] = await pixelAt(largest, 100, 380);
    expect(topRed).toBeGreaterThan(150);
    expect(topBlue).toBeLessThan(100);
    expect(bottomBlue).toBeGreaterThan(150);
    expect(bottomRed).toBeLessThan(100);
    await expectBarePicture(largest);
  });

  it('never enlarges a small photo: it is stored at its own width only', async () => {
    const photo = await converted(await phoneJpeg({ width: 300, height: 200 }));
    expect(photo.variants.map((v) => v.width)).toEqual([300]);
  });

  it('decodes a real iPhone HEIC (libheif in WebAssembly) and keeps none of its EXIF', async () => {
    const heic = heicFixture();
    expect(heic.includes('iPhone 15')).toBe(true);
    const photo = await converted(heic);
    expect(photo).toMatchObject({ width: 120, height: 80 });
    await expectBarePicture(photo.variants[0]!.bytes);
  });

  it('accepts TIFF, BMP, PNG, GIF and WebP and converts them', async () => {
    for (const bytes of [
      await encodeAs('tiff', 700, 500),
      bmp(700, 500),
      await encodeAs('png', 700, 500),
      await encodeAs('gif', 700, 500),
      await encodeAs('webp', 700, 500),
    ]) {
      const photo = await converted(bytes);
      expect(photo.variants.map((v) => v.width)).toEqual([320, 640, 700]);
      const [red, , blue] = await pixelAt(photo.variants[0]!.bytes, 10, 10);
      expect(red).toBeGreaterThan(150);
      expect(blue).toBeLessThan(100);
      await expectBarePicture(photo.variants[0]!.bytes);
    }
  });

  it('refuses bad input with a reason a person understands', async () => {
    const jpeg = await phoneJpeg({ width: 800, height: 600 });
    expect(await convertPhoto(Buffer.alloc(0))).toEqual({ ok: false, reason: PHOTO_REFUSALS.empty });
    expect(await convertPhoto(jpeg.subarray(0, Math.floor(jpeg.length / 2)))).toEqual({ ok: false, reason: PHOTO_REFUSALS.damaged });
    expect(await convertPhoto(SVG)).toEqual({ ok: false, reason: PHOTO_REFUSALS.notAPhoto });
    expect(await convertPhoto(Buffer.from('%PDF-1.7 not a photo at all'))).toEqual({ ok: false, reason: PHOTO_REFUSALS.notAPhoto });
    expect(await convertPhoto(Buffer.alloc(6 * 1024 * 1024, 0xff))).toEqual({ ok: false, reason: PHOTO_REFUSALS.tooLarge });
    expect(PHOTO_REFUSALS.notAPhoto).toBe("it isn't a photo (JPEG, PNG, HEIC, GIF, WebP, TIFF or BMP)");
  });

  it('refuses a 50,000 x 50,000 PNG bomb from its header, before decoding, without the memory it asks for', async () => {
    const bomb = pngBomb();
    expect(bomb.length).toBeLessThan(100_000);
    const before = process.memoryUsage().rss;
    expect(await convertPhoto(bomb)).toEqual({ ok: false, reason: PHOTO_REFUSALS.tooManyPixels });
    // Decoding it would take 7.5 GB; refusing it takes next to nothing.
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
    expect(PHOTO_REFUSALS.tooManyPixels).toContain(`${MAX_PHOTO_PIXELS / 1_000_000} megapixels`);
  });

  it('refuses a BMP whose header claims too many pixels without decoding it', async () => {
    const huge = bmp(10, 10);
    huge.writeInt32LE(60_000, 18);
    huge.writeInt32LE(60_000, 22);
    expect(await convertPhoto(huge)).toEqual({ ok: false, reason: PHOTO_REFUSALS.tooManyPixels });
  });

  it('decodes a 7000 x 7000 RLE BMP off the main thread: the event loop keeps turning (decision 0050)', async () => {
    // Node's own measure of the main thread's stalls (perf_hooks monitorEventLoopDelay). bmp-ts
    // decoding 49 MP on the main thread of the server (run by tsx) stalled it 0.2 s on a fast
    // machine and 1.6 s on a busy one (here, under Vitest, it decodes in about 40 ms); the lower
    // of two conversions' longest stalls leaves out the busy machine's own hiccups.
    const picture = rleBmp(7000, 7000);
    expect(picture.length).toBeLessThan(500_000);
    const stalls: number[] = [];
    for (let round = 0; round < 2; round++) {
      const histogram = monitorEventLoopDelay({ resolution: 10 });
      histogram.enable();
      const converted = await convertPhoto(picture);
      histogram.disable();
      expect(converted.ok && converted.photo.width).toBe(1280);
      stalls.push(histogram.max / 1e6);
    }
    expect(Math.min(...stalls), `longest stalls: ${stalls.map((s) => s.toFixed(0)).join(', ')} ms`).toBeLessThan(150);
  }, 120_000);
});

describe('the heavy-work limit', () => {
  it('runs at most its number of slots at once; the rest wait their turn', async () => {
    const limit = createWorkLimit(2);
    let running = 0;
    let most = 0;
    const task = async () => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running -= 1;
    };
    await Promise.all(Array.from({ length: 7 }, () => limit.run(task)));
    expect(most).toBe(2);
    expect(limit.active).toBe(0);
    await expect(limit.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(limit.active).toBe(0);
  });

  it('lets short work (photos, voice memos) wait ahead of long work (videos), until a long task has waited its patience', async () => {
    let clock = 0;
    const limit = createWorkLimit(1, () => clock);
    const order: string[] = [];
    let finishFirst = () => {};
    const first = limit.run(() => new Promise<void>((resolve) => (finishFirst = resolve)));
    const task = (name: string) => async () => {
      order.push(name);
    };
    const waiting = [limit.run(task('video 1')), limit.run(task('memo 1'), { soon: true }), limit.run(task('photo'), { soon: true })];
    expect(limit.waiting).toBe(3);
    finishFirst();
    await Promise.all([first, ...waiting]);
    expect(order).toEqual(['memo 1', 'photo', 'video 1']);

    // A video that has waited LONG_TASK_PATIENCE_MS goes before short work that came later.
    order.length = 0;
    const second = limit.run(() => new Promise<void>((resolve) => (finishFirst = resolve)));
    const more = [limit.run(task('video 2'))];
    clock += LONG_TASK_PATIENCE_MS;
    more.push(limit.run(task('memo 2'), { soon: true }));
    finishFirst();
    await Promise.all([second, ...more]);
    expect(order).toEqual(['video 2', 'memo 2']);
  });
});
