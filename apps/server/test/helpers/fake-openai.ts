import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake answers to one chat completion request. */
export type FakeAnswer =
  | { kind: 'content'; content: string | null; finishReason?: string }
  | { kind: 'status'; status: number; body: unknown }
  | { kind: 'hang' };

export interface FakeOpenAi {
  /** The OPENAI_BASE_URL to give the SDK. */
  baseUrl: string;
  /** Request bodies received, in order. */
  requests: Array<{ path: string; authorization: string | undefined; body: Record<string, unknown> }>;
  answer: (next: FakeAnswer) => void;
  close: () => Promise<void>;
}

/**
 * An OpenAI-compatible chat endpoint on 127.0.0.1: the real SDK talks to it over real HTTP.
 * It answers every request with the last answer set ('hang' never answers: a time-out).
 */
export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  let current: FakeAnswer = { kind: 'content', content: JSON.stringify({ content: 'Hello from the model.' }) };
  const requests: FakeOpenAi['requests'] = [];
  const server = createServer((req, res) => {
    void handle(req, res);
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    requests.push({ path: req.url ?? '', authorization: req.headers.authorization, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} });
    const answer = current;
    if (answer.kind === 'hang') return;
    if (answer.kind === 'status') return json(res, answer.status, answer.body);
    return json(res, 200, {
      id: 'chatcmpl-fake',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: String(requests.at(-1)?.body.model ?? 'fake'),
      choices: [{ index: 0, message: { role: 'assistant', content: answer.content }, finish_reason: answer.finishReason ?? 'stop' }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    answer: (next) => {
      current = next;
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
