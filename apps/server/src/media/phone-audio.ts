import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inputOptions, runTool, type FfmpegTools } from './ffmpeg';
import { heavyWork } from './heavy-work';

/** What a voice memo is played as on a call: WAV, mu-law, 8 kHz mono, the phone network's own sound. */
export const PHONE_AUDIO_CONTENT_TYPE = 'audio/wav';

/**
 * A stored voice memo (AAC in MP4, media/clip.ts) as a call plays it: Twilio's <Play> takes WAV
 * and MP3, not MP4 (https://www.twilio.com/docs/voice/twiml/play#supported-audio-file-types).
 * Null when ffmpeg cannot read it.
 */
export async function toPhoneAudio(tools: FfmpegTools, memo: Buffer, timeoutMs: number): Promise<Buffer | null> {
  return heavyWork.run(
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'loop-call-'));
      try {
        const input = join(dir, 'memo.m4a');
        const output = join(dir, 'memo.wav');
        await writeFile(input, memo);
        const args = ['-nostdin', '-v', 'error', ...inputOptions('mov'), '-i', input, '-vn', '-map_metadata', '-1'];
        const run = await runTool(tools.ffmpeg, [...args, '-ac', '1', '-ar', '8000', '-c:a', 'pcm_mulaw', '-f', 'wav', output], timeoutMs);
        return run.code === 0 ? await readFile(output) : null;
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
    { soon: true },
  );
}
