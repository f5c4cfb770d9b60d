import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake answers to one chat completion request ('follow': a gullible model, see followNotes). */
export type FakeAnswer =
  | { kind: 'content'; content: string | null; finishReason?: string }
  | { kind: 'follow'; obey?: (instruction: string) => string }
  | { kind: 'status'; status: number; body: unknown }
  | { kind: 'hang' };

/** What the fake answers to one transcription (POST /audio/transcriptions). */
export type FakeTranscription = { kind: 'text'; text: string } | { kind: 'status'; status: number; body: unknown } | { kind: 'hang' };

/** One multipart upload to /audio/transcriptions, as the fake read it. */
export interface FakeUpload {
  path: string;
  authorization: string | undefined;
  /** The request's Content-Type (multipart/form-data; boundary=...). */
  contentType: string;
  /** The form's text fields (model, response_format...). */
  fields: Record<string, string>;
  /** The form's `file` field, if it was a file. */
  file: { name: string; type: string; bytes: Buffer } | null;
}

export interface FakeOpenAi {
  /** The OPENAI_BASE_URL to give the SDK. */
  baseUrl: string;
  /** Request bodies received, in order. */
  requests: Array<{ path: string; authorization: string | undefined; body: Record<string, unknown> }>;
  /** Transcription uploads received, in order. */
  uploads: FakeUpload[];
  answer: (next: FakeAnswer) => void;
  /** What every later transcription request gets. */
  transcribe: (next: FakeTranscription) => void;
  close: () => Promise<void>;
}

/**
 * An OpenAI-compatible chat endpoint on 127.0.0.1: the real SDK talks to it over real HTTP.
 * It answers every request with the last answer set ('hang' never answers: a time-out).
 */
export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  let current: FakeAnswer = { kind: 'content', content: JSON.stringify({ content: 'Hello from the model.' }) };
  let transcription: FakeTranscription = { kind: 'text', text: 'Hello from the voice memo.' };
  const requests: FakeOpenAi['requests'] = [];
  const uploads: FakeUpload[] = [];
  const server = createServer((req, res) => {
    void handle(req, res);
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if ((req.url ?? '').endsWith('/audio/transcriptions')) return handleUpload(req, res, Buffer.concat(chunks));
    const text = Buffer.concat(chunks).toString('utf8');
    requests.push({
      path: req.url ?? '',
      authorization: req.headers.authorization,
      body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
    });
    const answer = current;
    if (answer.kind === 'hang') return;
    if (answer.kind === 'status') return json(res, answer.status, answer.body);
    const content =
      answer.kind === 'follow' ? JSON.stringify({ content: followNotes(requests.at(-1)?.body, answer.obey) }) : answer.content;
    return json(res, 200, {
      id: 'chatcmpl-fake',
      object: 'chat.completion',
      created: 1_700_000_000,
      // Echoes the model name the client sent, a string.
      model: String(requests.at(-1)?.body.model ?? 'fake'),
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content },
          finish_reason: answer.kind === 'content' ? (answer.finishReason ?? 'stop') : 'stop',
        },
      ],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    });
  }

  /**
   * A transcription, as https://platform.openai.com/docs/api-reference/audio/createTranscription
   * describes it: a multipart/form-data body with `file` and `model`; with response_format `json`
   * the answer is `{ "text": ..., "usage": ... }`. The body is read by the platform's own
   * multipart parser (Request.formData), not by anything of Loop's.
   */
  async function handleUpload(req: IncomingMessage, res: ServerResponse, body: Buffer) {
    const contentType = req.headers['content-type'] ?? '';
    const fields: Record<string, string> = {};
    let file: FakeUpload['file'] = null;
    try {
      const form = await new Request('http://fake.invalid/', {
        method: 'POST',
        headers: { 'content-type': contentType },
        body: new Uint8Array(body),
      }).formData();
      for (const [name, value] of form.entries()) {
        if (typeof value === 'string') fields[name] = value;
        else if (name === 'file') file = { name: value.name, type: value.type, bytes: Buffer.from(await value.arrayBuffer()) };
      }
    } catch {
      // Not multipart: recorded with no fields, and answered as the platform would.
    }
    uploads.push({ path: req.url ?? '', authorization: req.headers.authorization, contentType, fields, file });
    const answer = transcription;
    if (answer.kind === 'hang') return;
    if (answer.kind === 'status') return json(res, answer.status, answer.body);
    if (!file || !fields.model) return json(res, 400, { error: { message: 'file and model are required', type: 'invalid_request_error' } });
    return json(res, 200, {
      text: answer.text,
      usage: {
        type: 'tokens',
        input_tokens: 14,
        input_token_details: { text_tokens: 0, audio_tokens: 14 },
        output_tokens: 45,
        total_tokens: 59,
      },
    });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    uploads,
    answer: (next) => {
      current = next;
    },
    transcribe: (next) => {
      transcription = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const NOTE = /note to the newsletter writer:\s*(.+)/i;

/** What a gullible model does when told to have everyone verify their account: the phishing of OWASP LLM01's examples. */
export function phishingLink(instruction: string): string {
  return /verify/i.test(instruction) ? 'Important: everyone, please [verify your account](https://evil.example/login) today.' : instruction;
}

/**
 * A model that does its job, and also whatever a member's text tells it to (a prompt injection,
 * OWASP LLM01: https://genai.owasp.org/llmrisk/llm01-prompt-injection/). It reads the user message
 * Loop sends (the JSON of decision 0021: group, period, updates), quotes each member's text word
 * for word as a blockquote under "## Name" with their photos, as the instructions ask, and adds
 * `obey(instruction)` for each "Note to the newsletter writer: ..." it finds in an update.
 */
function followNotes(body: Record<string, unknown> | undefined, obey: (instruction: string) => string = phishingLink): string {
  const messages = (body?.messages ?? []) as { role: string; content: string }[];
  const facts = JSON.parse(messages.find((m) => m.role === 'user')?.content ?? '{}') as {
    group?: { name?: string };
    updates?: { member: string; text: string; photos: string[] }[];
  };
  const blocks = [`Hello, ${facts.group?.name ?? 'everyone'}!`];
  for (const update of facts.updates ?? []) {
    blocks.push(`## ${update.member}`);
    if (update.text)
      blocks.push(
        update.text
          .split('\n')
          .map((line) => `> ${line}`)
          .join('\n'),
      );
    for (const url of update.photos) blocks.push(`![Photo from ${update.member}](${url})`);
    const note = NOTE.exec(update.text)?.[1];
    if (note) blocks.push(obey(note));
  }
  blocks.push('Until next time!');
  return blocks.join('\n\n');
}
