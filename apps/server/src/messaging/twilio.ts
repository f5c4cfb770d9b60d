import { AsyncLocalStorage } from 'node:async_hooks';
import http from 'node:http';
import https from 'node:https';
import twilio from 'twilio';
import type { Config } from '../config';
import { sendErrors } from '../metrics/process-metrics';
import {
  SEND_CONCURRENCY,
  SEND_TIMEOUT_MS,
  SendError,
  type FoundText,
  type MessagingProvider,
  type OutgoingText,
  type SentText,
  type SentTextQuery,
} from './provider';

type RequestOptions<TData> = Parameters<twilio.RequestClient['request']>[0] & { data?: TData };
type Answer<TData> = Awaited<ReturnType<twilio.RequestClient['request']>> & { body: TData };

const TIMEOUT_MS = SEND_TIMEOUT_MS;
/** The signal of the send whose request the SDK is making (the SDK's own API takes none). */
const sendSignal = new AsyncLocalStorage<AbortSignal | undefined>();
/** One kept-alive connection per text in flight (the SDK's default: 20 sockets, 5 kept idle). */
const AGENT_OPTIONS = { keepAlive: true, maxSockets: SEND_CONCURRENCY, maxFreeSockets: SEND_CONCURRENCY, timeout: TIMEOUT_MS };

/**
 * The SDK's HTTP client (its `httpClient` option), carrying requests over node:http(s) with
 * kept-alive connections instead of the SDK's own axios client. The SDK still builds every
 * request (URL, Basic auth, form body, User-Agent) and reads every answer (RestException on an
 * error status); only the transport is ours. A reminder burst is bound by the sender's CPU, and
 * axios took about 40% of it per text (bench/reminder-burst). Retries stay ours: the outbox knows
 * the attempt count. With HTTP_PROXY or TWILIO_CA_BUNDLE set, the SDK's own client carries the
 * requests, as those settings are its features.
 *
 * `baseUrl` (TWILIO_API_BASE_URL) sends every request to another host instead of *.twilio.com
 * (tests, proxies), keeping the path.
 */
class TwilioHttpClient extends twilio.RequestClient {
  private readonly agents = { http: new http.Agent(AGENT_OPTIONS), https: new https.Agent(AGENT_OPTIONS) };
  private readonly sdkTransport = Boolean(process.env.HTTP_PROXY || process.env.TWILIO_CA_BUNDLE);

  /** TWILIO_API_BASE_URL's origin and path without a trailing slash, parsed once. */
  private readonly base: string | undefined;

  constructor(baseUrl: string | undefined) {
    super({ timeout: TIMEOUT_MS, autoRetry: false, keepAlive: true, maxSockets: SEND_CONCURRENCY, maxFreeSockets: SEND_CONCURRENCY });
    if (baseUrl) {
      const base = new URL(baseUrl);
      this.base = `${base.origin}${base.pathname.replace(/\/+$/, '')}`;
    }
  }

  override async request<TData>(opts: RequestOptions<TData>): Promise<Answer<TData>> {
    const url = this.target(opts.uri);
    if (this.sdkTransport) return super.request<TData>({ ...opts, uri: url.href });
    const headers: Record<string, string> = { ...opts.headers, Connection: 'keep-alive' };
    if (opts.username && opts.password) {
      headers.Authorization = `Basic ${Buffer.from(`${opts.username}:${opts.password}`).toString('base64')}`;
    } else if (opts.authStrategy) {
      headers.Authorization = await opts.authStrategy.getAuthString();
    }
    if (opts.params) url.search = formEncode(opts.params as Record<string, unknown>);
    let body: string | undefined;
    if (opts.data !== undefined && opts.data !== null) {
      if (headers['Content-Type'] === 'application/x-www-form-urlencoded') body = formEncode(opts.data as Record<string, unknown>);
      else if (headers['Content-Type'] === 'application/json') body = JSON.stringify(opts.data);
    }
    if (body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(body));

    const secure = url.protocol === 'https:';
    const timeoutMs = opts.timeout ?? TIMEOUT_MS;
    const signal = sendSignal.getStore();
    signal?.throwIfAborted();
    return new Promise((resolve, reject) => {
      const request = (secure ? https : http).request(
        url,
        { method: opts.method.toUpperCase(), headers, agent: secure ? this.agents.https : this.agents.http },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', fail);
          response.on('end', () => {
            clearTimeout(timer);
            signal?.removeEventListener('abort', abort);
            // A string body: the SDK parses it, and reads Twilio's error code from it.
            resolve({
              statusCode: response.statusCode ?? 0,
              body: Buffer.concat(chunks).toString('utf8') as TData,
              headers: response.headers,
            });
          });
        },
      );
      function fail(error: Error) {
        clearTimeout(timer);
        signal?.removeEventListener('abort', abort);
        reject(error);
      }
      // The process is stopping: the request is given up (the text goes back to the outbox).
      function abort() {
        const error = new Error('the send was aborted: Loop is stopping');
        request.destroy(error);
        fail(error);
      }
      signal?.addEventListener('abort', abort, { once: true });
      // The whole exchange, like the SDK's client: no answer in time is a network error (retried).
      const timer = setTimeout(() => {
        const error = new Error(`timeout of ${timeoutMs}ms exceeded`);
        request.destroy(error);
        fail(error);
      }, timeoutMs);
      request.on('error', fail);
      request.end(body);
    });
  }

  private target(uri: string): URL {
    const url = new URL(uri);
    if (!this.base) return url;
    return new URL(`${this.base}${url.pathname}${url.search}`);
  }
}

/** A form body or query string; a list repeats its key (MediaUrl=a&MediaUrl=b), as Twilio expects. */
function formEncode(values: Record<string, unknown>): string {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- callers pass strings, numbers and lists of them
    for (const item of Array.isArray(value) ? (value as unknown[]) : [value]) form.append(key, String(item ?? ''));
  }
  return form.toString();
}

/** The `twilio` provider: the official SDK, SMS and WhatsApp. */
export function createTwilioProvider(config: Config): MessagingProvider {
  const sid = config.TWILIO_ACCOUNT_SID;
  const token = config.TWILIO_AUTH_TOKEN;
  if (!sid || !token) throw new Error('Twilio is not configured');
  const client = twilio(sid, token, { httpClient: new TwilioHttpClient(config.TWILIO_API_BASE_URL) });

  return {
    name: 'twilio',
    async send(text: OutgoingText, signal?: AbortSignal): Promise<SentText> {
      const sender = text.from.startsWith('MG') ? { messagingServiceSid: text.from } : { from: text.from };
      const content = text.template
        ? { contentSid: text.template.contentSid, contentVariables: JSON.stringify(text.template.variables) }
        : { body: text.body };
      try {
        const message = await sendSignal.run(signal, () =>
          client.messages.create({
            to: text.to,
            ...sender,
            ...content,
            ...(text.mediaUrls.length > 0 && !text.template ? { mediaUrl: text.mediaUrls } : {}),
            ...(text.statusCallback ? { statusCallback: text.statusCallback } : {}),
          }),
        );
        return { providerMessageId: message.sid };
      } catch (error) {
        if (signal?.aborted) throw new SendError('Not sent: Loop stopped while Twilio had not answered', true);
        throw toSendError(error);
      }
    },
    async findSent(query: SentTextQuery, signal?: AbortSignal): Promise<FoundText | null> {
      // Twilio's Messages list (https://www.twilio.com/docs/messaging/api/message-resource#read-multiple-message-resources),
      // newest first, filtered by To. Not by DateSent: a text Twilio took but has not sent yet
      // has no date_sent. Its date_created is compared here instead, with a minute for the two
      // clocks. A failed or undelivered text was taken too: it is not sent again either.
      const earliest = query.since.getTime() - CLOCK_SKEW_MS;
      try {
        const found = await sendSignal.run(signal, () => client.messages.list({ to: query.to, pageSize: FIND_PAGE, limit: FIND_PAGE }));
        const match = found.find(
          (m) => m.direction !== 'inbound' && m.dateCreated.getTime() >= earliest && (m.body ?? '').trim() === query.body.trim(),
        );
        return match ? { providerMessageId: match.sid, from: match.from } : null;
      } catch (error) {
        throw toSendError(error);
      }
    },
  };
}

/** Texts of one number findSent reads: a member gets far fewer between two attempts. */
const FIND_PAGE = 50;
/** How far Twilio's clock may be from ours, for findSent. */
const CLOCK_SKEW_MS = 60_000;

function toSendError(error: unknown): SendError {
  sendErrors.inc({ code: error instanceof twilio.RestException ? String(error.code ?? `http_${error.status}`) : 'network' });
  if (error instanceof twilio.RestException) {
    const retryable = error.status === 429 || error.status >= 500;
    const label = error.code ? `Twilio error ${error.code}` : `Twilio answered ${error.status}`;
    return new SendError(`${label}: ${error.message}`, retryable, error.code);
  }
  // No answer at all (refused, reset, timed out): the text may be sent by trying again.
  const message = error instanceof Error ? error.message : String(error);
  return new SendError(`Could not reach Twilio: ${message}`, true);
}
