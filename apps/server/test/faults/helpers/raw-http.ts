import net from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * One HTTP/1.1 connection driven byte by byte, for what fetch cannot do: send half a request,
 * wait for `100 Continue`, pipeline a second request behind the first.
 */
export async function rawConnection(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let buffer = '';
  let ended = false;
  let error: Error | undefined;
  const waiters = new Set<() => void>();
  const notify = () => waiters.forEach((w) => w());
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffer += chunk;
    notify();
  });
  socket.on('end', () => {
    ended = true;
    notify();
  });
  socket.on('error', (e) => {
    error = e;
    notify();
  });

  /** Waits until `ready()` returns a value, the socket ends, or `timeoutMs` passes. */
  function until<T>(ready: () => T | undefined, what: string, timeoutMs: number): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const value = ready();
        if (value !== undefined) return done(() => resolve(value));
        if (error || ended)
          return done(() =>
            reject(new Error(`connection ${error ? `failed (${error.message})` : 'closed'} before ${what}; got ${JSON.stringify(buffer)}`)),
          );
      };
      const timer = setTimeout(
        () => done(() => reject(new Error(`no ${what} within ${timeoutMs} ms; got ${JSON.stringify(buffer)}`))),
        timeoutMs,
      );
      const done = (settle: () => void) => {
        clearTimeout(timer);
        waiters.delete(check);
        settle();
      };
      waiters.add(check);
      check();
    });
  }

  /** Takes one whole response off the front of the buffer (1xx ones included). */
  function takeResponse(): RawResponse | undefined {
    const end = buffer.indexOf('\r\n\r\n');
    if (end < 0) return undefined;
    const [statusLine = '', ...lines] = buffer.slice(0, end).split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const status = Number(statusLine.split(' ')[1]);
    const length = status < 200 ? 0 : Number(headers['content-length'] ?? 0);
    if (buffer.length < end + 4 + length) return undefined;
    const body = buffer.slice(end + 4, end + 4 + length);
    buffer = buffer.slice(end + 4 + length);
    return { status, headers, body };
  }

  return {
    write: (data: string) => socket.write(data),
    /** The next response, 1xx included. */
    response: (timeoutMs = 10_000) => until(takeResponse, 'a response', timeoutMs),
    /** True once the server closed the connection. */
    closed: () => until(() => (ended || error ? true : undefined), 'the end', 10_000).catch(() => false),
    destroy: () => socket.destroy(),
  };
}

/** A request as text; the body is sent separately when `split`. */
export function requestText(input: { method: string; path: string; headers?: Record<string, string>; body?: string }): string {
  const headers = {
    host: '127.0.0.1',
    ...input.headers,
    ...(input.body !== undefined ? { 'content-length': String(Buffer.byteLength(input.body)) } : {}),
  };
  const head = `${input.method} ${input.path} HTTP/1.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`;
  return head + (input.body ?? '');
}
