// `npm run bench -- photos`: the photo pipeline on real-size phone photos. Makes 100 different
// 4032 x 3024 JPEGs with camera EXIF and GPS (and 3 HEICs, slow to encode, when Debian's heif-enc is installed:
// apt-get install libheif-examples; no npm package can encode HEVC), then lets 10 texts of 10
// photos each arrive at once, as the inbound pipeline handles them: each text's photos one after
// another, the texts side by side, every conversion under the shared heavy-work limit (one per
// core). Prints photos per second and the process's peak RSS. Targets: at least 5
// photos/s on 2 cores, peak RSS under 512 MB.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PHONE_HEIGHT as HEIGHT, PHONE_WIDTH as WIDTH, phonePhoto } from './phone-photo';

const PHOTOS = 100;
const TEXTS = 10;
const HEICS = 3;
const here = fileURLToPath(import.meta.url);

async function makeJpegs(dir: string): Promise<void> {
  const raw = Buffer.alloc(WIDTH * HEIGHT * 3);
  for (let n = 0; n < PHOTOS; n++) writeFileSync(path.join(dir, `photo-${String(n).padStart(3, '0')}.jpg`), await phonePhoto(n, raw));
}

/** A few HEICs from the first JPEGs with Debian's heif-enc; false when it is not installed. */
function makeHeics(dir: string): boolean {
  const heifEnc = spawnSync('heif-enc', ['--version'], { encoding: 'utf8' });
  if (heifEnc.error) {
    console.log('heif-enc not installed (apt-get install libheif-examples): HEIC photos left out');
    return false;
  }
  for (let n = 0; n < HEICS; n++) {
    const jpeg = path.join(dir, `photo-${String(n).padStart(3, '0')}.jpg`);
    const result = spawnSync('heif-enc', ['-q', '60', '-o', path.join(dir, `photo-${String(n).padStart(3, '0')}.heic`), jpeg]);
    if (result.status !== 0) throw new Error(`heif-enc failed: ${result.stderr.toString()}`);
  }
  return true;
}

async function run(dir: string, kind: 'jpg' | 'heic'): Promise<void> {
  const { convertPhoto } = await import('../../apps/server/src/media/photo');
  const { putPhoto } = await import('../../apps/server/src/media/stored-media');
  const { localDiskStorage } = await import('../../apps/server/src/storage/local-disk');
  const storage = localDiskStorage(path.join(dir, 'media'));
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(`.${kind}`))
    .sort();
  const texts: string[][] = Array.from({ length: Math.min(TEXTS, files.length) }, () => []);
  files.forEach((file, i) => texts[i % texts.length]?.push(file));
  let inputBytes = 0;
  let outputBytes = 0;
  let refused = 0;
  const started = performance.now();
  await Promise.all(
    texts.map(async (text) => {
      for (const file of text) {
        const bytes = readFileSync(path.join(dir, file));
        inputBytes += bytes.length;
        const result = await convertPhoto(bytes);
        if (!result.ok) {
          refused += 1;
          continue;
        }
        const stored = await putPhoto(storage, result.photo);
        outputBytes += stored.bytes;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const peakMb = process.resourceUsage().maxRSS / 1024;
  const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
  console.log(
    `${kind.toUpperCase()}: ${files.length} photos ${WIDTH}x${HEIGHT} (${mb(inputBytes)} MB in, ${texts.length} texts at once, ${availableParallelism()} cores): ` +
      `${(files.length / seconds).toFixed(2)} photos/s, ${seconds.toFixed(1)} s, peak RSS ${peakMb.toFixed(0)} MB, ` +
      `stored ${mb(outputBytes)} MB (320/640/1280 WebP), refused ${refused}`,
  );
}

const [mode, dir, kind] = process.argv.slice(2);
if (mode === 'run' && dir && (kind === 'jpg' || kind === 'heic')) {
  await run(dir, kind);
} else {
  const work = mkdtempSync(path.join(tmpdir(), 'loop-bench-photos-'));
  try {
    const made = performance.now();
    await makeJpegs(work);
    console.log(`Made the JPEGs in ${((performance.now() - made) / 1000).toFixed(0)} s`);
    // Each measurement in a fresh process: its peak RSS is the pipeline's, not the photo maker's.
    const measure = (which: 'jpg' | 'heic') => {
      const child = spawnSync(process.execPath, ['--import', 'tsx', here, 'run', work, which], { stdio: 'inherit' });
      if (child.status !== 0) process.exitCode = 1;
    };
    measure('jpg');
    if (makeHeics(work)) measure('heic');
  } finally {
    if (existsSync(work)) rmSync(work, { recursive: true, force: true });
  }
}
