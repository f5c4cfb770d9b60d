// Decodes one HEIC/HEIF image with libheif compiled to WebAssembly (heic-decode), off the main
// thread: a 12 MP photo takes about two seconds of CPU that would otherwise block every request.
import { parentPort, workerData } from 'node:worker_threads';
import decode from 'heic-decode';

try {
  const image = await decode({ buffer: workerData.bytes });
  const data = new Uint8Array(image.data.buffer, image.data.byteOffset, image.data.byteLength);
  parentPort.postMessage({ width: image.width, height: image.height, data }, [data.buffer]);
} catch (error) {
  parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) });
}
