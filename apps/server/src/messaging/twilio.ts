import twilio from 'twilio';
import type { Config } from '../config';
import { SendError, type MessagingProvider, type OutgoingText, type SentText } from './provider';

type RequestOptions = Parameters<twilio.RequestClient['request']>[0];

/**
 * Sends every request of the SDK to TWILIO_API_BASE_URL instead of *.twilio.com (tests, proxies),
 * keeping the path. Retries stay ours (autoRetry off): the outbox knows the attempt count.
 */
class RedirectingRequestClient extends twilio.RequestClient {
  constructor(private readonly baseUrl: string) {
    super({ timeout: 30_000, autoRetry: false });
  }

  override request<TData>(opts: RequestOptions & { data?: TData }) {
    const uri = new URL(opts.uri);
    const base = new URL(this.baseUrl);
    const prefix = base.pathname.replace(/\/+$/, '');
    return super.request<TData>({ ...opts, uri: `${base.origin}${prefix}${uri.pathname}${uri.search}` });
  }
}

/** The `twilio` provider: the official SDK, SMS and WhatsApp. */
export function createTwilioProvider(config: Config): MessagingProvider {
  const sid = config.TWILIO_ACCOUNT_SID;
  const token = config.TWILIO_AUTH_TOKEN;
  if (!sid || !token) throw new Error('Twilio is not configured');
  const client = twilio(sid, token, {
    httpClient: config.TWILIO_API_BASE_URL
      ? new RedirectingRequestClient(config.TWILIO_API_BASE_URL)
      : new twilio.RequestClient({ timeout: 30_000, autoRetry: false }),
  });

  return {
    name: 'twilio',
    async send(text: OutgoingText): Promise<SentText> {
      const sender = text.from.startsWith('MG') ? { messagingServiceSid: text.from } : { from: text.from };
      const content = text.template
        ? { contentSid: text.template.contentSid, contentVariables: JSON.stringify(text.template.variables) }
        : { body: text.body };
      try {
        const message = await client.messages.create({
          to: text.to,
          ...sender,
          ...content,
          ...(text.mediaUrls.length > 0 && !text.template ? { mediaUrl: text.mediaUrls } : {}),
          ...(text.statusCallback ? { statusCallback: text.statusCallback } : {}),
        });
        return { providerMessageId: message.sid };
      } catch (error) {
        throw toSendError(error);
      }
    },
  };
}

function toSendError(error: unknown): SendError {
  if (error instanceof twilio.RestException) {
    const retryable = error.status === 429 || error.status >= 500;
    const label = error.code ? `Twilio error ${error.code}` : `Twilio answered ${error.status}`;
    return new SendError(`${label}: ${error.message}`, retryable, error.code);
  }
  // No answer at all (refused, reset, timed out): the text may be sent by trying again.
  const message = error instanceof Error ? error.message : String(error);
  return new SendError(`Could not reach Twilio: ${message}`, true);
}
