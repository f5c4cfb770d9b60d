import OpenAI, { toFile } from 'openai';
import { openAiEndpoint, type Config } from '../config';
import { AUDIO_CONTENT_TYPE } from './clip';

/**
 * The largest file the transcription endpoint takes: 25 MB
 * (https://platform.openai.com/docs/guides/speech-to-text). A converted voice memo is far smaller
 * (five minutes of 64 kbit/s AAC is about 2.4 MB); a larger one is not sent.
 */
export const TRANSCRIPTION_MAX_BYTES = 25 * 1024 * 1024;

/** Turns a converted voice memo (AAC in MP4) into its words; null when it cannot (kept without them). */
export interface Transcriber {
  transcribe(audio: Buffer): Promise<string | null>;
}

/** Where a failed transcription is told (the app's logger, pino-style). */
export interface TranscriberLog {
  warn(obj: object, msg: string): void;
}

export interface TranscriberOptions {
  apiKey: string | undefined;
  baseUrl: string | undefined;
  model: string;
  timeoutMs: number;
  maxChars: number;
  log: TranscriberLog;
}

/**
 * The transcriber where an OpenAI-compatible endpoint is configured (the newsletter writer's
 * OPENAI_API_KEY or OPENAI_BASE_URL), else null: voice memos are then kept without words.
 */
export function createTranscriber(config: Config, log: TranscriberLog): Transcriber | null {
  const endpoint = openAiEndpoint(config);
  if (!endpoint) return null;
  const { OPENAI_TRANSCRIPTION_MODEL: model, TRANSCRIPTION_TIMEOUT_MS: timeoutMs, TRANSCRIPT_MAX_CHARS: maxChars } = config;
  return openAiTranscriber({ ...endpoint, model, timeoutMs, maxChars, log });
}

/**
 * `audio.transcriptions.create` of the official SDK (one try, bounded by the timeout): the m4a
 * goes up as a multipart file, the answer's `text` comes back. Whatever goes wrong (an error, no
 * answer in time, an empty or odd answer), the memo is kept without words: nothing is retried
 * and the update is never held back.
 */
export function openAiTranscriber(options: TranscriberOptions): Transcriber {
  // Local Whisper servers need no key, but the SDK insists on one.
  const client = new OpenAI({ apiKey: options.apiKey ?? 'none', baseURL: options.baseUrl, timeout: options.timeoutMs, maxRetries: 0 });
  return {
    async transcribe(audio) {
      if (audio.length === 0 || audio.length > TRANSCRIPTION_MAX_BYTES) return null;
      try {
        const answer = await client.audio.transcriptions.create({
          file: await toFile(audio, 'voice-memo.m4a', { type: AUDIO_CONTENT_TYPE }),
          model: options.model,
          response_format: 'json',
        });
        const text: unknown = (answer as { text?: unknown }).text;
        return typeof text === 'string' ? cleanTranscript(text, options.maxChars) : null;
      } catch (error) {
        options.log.warn({ err: error }, 'A voice memo could not be transcribed; it is kept without its words');
        return null;
      }
    },
  };
}

/**
 * A transcript as Loop keeps it: what a member "sent", so plain text only. Control characters go
 * (tabs and line breaks become spaces and single line breaks), blank runs shrink, and a text
 * longer than `maxChars` is cut at a word with "…". Null when nothing is left.
 */
export function cleanTranscript(text: string, maxChars: number): string | null {
  const clean = text
    .normalize('NFC')
    .replace(/\r\n?/g, '\n')
    // eslint-disable-next-line no-control-regex -- removing control characters is the point
    .replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, ' ')
    .replace(/[ \u00a0]+/g, ' ')
    .replace(/ *\n[\n ]*/g, '\n')
    .trim();
  if (clean === '') return null;
  if (clean.length <= maxChars) return clean;
  const cut = clean.slice(0, maxChars - 1);
  const space = cut.search(/\s\S*$/);
  return `${(space > maxChars / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
