// Decodes one image the main thread would otherwise spend seconds on (decision 0050): HEIC/HEIF
// with libheif compiled to WebAssembly (heic-decode; a 12 MP photo takes about two seconds of
// CPU), and BMP with bmp-ts in JavaScript (an RLE-compressed 7000 x 7000 BMP of 400 KB takes 0.2
// to 2 s). On the main thread that time would block every request, text and scheduled job.
import { parentPort, workerData } from 'node:worker_threads';
import { decode as decodeBmp } from 'bmp-ts';
import decodeHeic from 'heic-decode';

try {
  const { kind, bytes } = workerData;
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const image = kind === 'bmp' ? decodeBmp(buffer, { toRGBA: true }) : await decodeHeic({ buffer });
  const data = new Uint8Array(image.data.buffer, image.data.byteOffset, image.data.byteLength);
  parentPort.postMessage({ width: image.width, height: image.height, data }, [data.buffer]);
} catch (error) {
  parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) });
}
