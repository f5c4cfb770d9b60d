/** One text handed to a provider. Addresses are E.164, or `whatsapp:+E164` for WhatsApp. */
export interface OutgoingText {
  to: string;
  /** A phone number, `whatsapp:+E164`, or a Twilio Messaging Service SID (MG...). */
  from: string;
  body: string;
  /** Absolute URLs the provider fetches and attaches. */
  mediaUrls: string[];
  /** A WhatsApp template to use instead of the free-form body. */
  template?: { contentSid: string; variables: Record<string, string> };
  statusCallback?: string;
}

export interface SentText {
  providerMessageId: string;
}

/** What to look for at the provider: a text to `to` with `body`, taken since `since` (decision 0064). */
export interface SentTextQuery {
  to: string;
  body: string;
  since: Date;
}

/** A text the provider took, found by asking it. */
export interface FoundText {
  providerMessageId: string;
  from: string;
}

/** Sends texts. Inbound texts do not go through it: they arrive by webhook or from the simulator. */
export interface MessagingProvider {
  readonly name: 'twilio' | 'simulator';
  /** `signal` aborts the request under way (the process is stopping); the text was then not taken, as far as we know. */
  send(text: OutgoingText, signal?: AbortSignal): Promise<SentText>;
  /**
   * Asks the provider whether it already took this text (a send whose answer was lost, or never
   * recorded): the text it found, or null. Without it (the simulator, whose sends never leave
   * the process) a row in doubt is sent again.
   */
  findSent?(query: SentTextQuery, signal?: AbortSignal): Promise<FoundText | null>;
}

/**
 * Texts one process has in flight at once (sendDueTexts). Each waits for the provider's answer
 * (~100-300 ms from Twilio), so 32 keep roughly 100-300 texts/s going without pacing; the Twilio
 * client keeps as many connections open (twilio.ts). Twilio limits concurrent API requests per
 * account: several processes together should stay within it.
 */
export const SEND_CONCURRENCY = 32;
/** How long a send waits for the provider's answer before it counts as a network error. */
export const SEND_TIMEOUT_MS = 30_000;
/**
 * When the process stops, how long sends already handed to the provider may take to be answered
 * before they are aborted (their texts go back to the outbox, due at once): well within the
 * 10 s a stop may take (server.ts), however slow the provider.
 */
export const SEND_ABORT_AFTER_STOP_MS = 3_000;

/** Twilio error codes that can never succeed by trying again. */
export const PERMANENT_ERROR_CODES = {
  optedOut: 21610,
  invalidNumber: 21211,
  outsideWhatsAppWindow: 63016,
  /** https://www.twilio.com/docs/api/errors/30005: unknown destination handset (the number is not in service). */
  unknownNumber: 30005,
  /** https://www.twilio.com/docs/api/errors/30006: a landline, or a carrier that cannot take texts. */
  landline: 30006,
  /** https://www.twilio.com/docs/api/errors/21614: the To number is not a mobile number. */
  notMobile: 21614,
  /** https://www.twilio.com/docs/api/errors/63024: the recipient has no WhatsApp account. */
  notWhatsApp: 63024,
} as const;

/** The errors that mark a phone as unable to receive texts (undeliverable_phones, decision 0039). */
export const UNDELIVERABLE_CODES: readonly number[] = [
  PERMANENT_ERROR_CODES.unknownNumber,
  PERMANENT_ERROR_CODES.landline,
  PERMANENT_ERROR_CODES.notMobile,
];

/**
 * A failed send. `retryable` is true for throttling (429), the provider's own faults (5xx) and
 * network errors; false for anything the provider refused on its merits.
 */
export class SendError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly code?: number,
  ) {
    super(message);
    this.name = 'SendError';
  }
}
