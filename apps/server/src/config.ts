import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP, isIPv4, isIPv6 } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { toE164 } from '@loop/shared/phone';
import { isPhoneCountry, phoneKind } from '@loop/shared/phone-kind';
import { DEFAULT_QUIET_HOURS, parseQuietHours } from '@loop/shared/quiet-hours';

const optionalText = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

const httpUrl = (name: string) =>
  z
    .string()
    .trim()
    .refine((v) => /^https?:\/\/[^\s/]+/i.test(v) && URL.canParse(v), {
      message: `${name} must be an http:// or https:// URL`,
    })
    .transform((v) => v.replace(/\/+$/, ''));

/** A link the landing page shows: an http(s) URL or a path on this site ("/guide"). */
const linkUrl = (name: string) =>
  optionalText.pipe(
    z
      .string()
      .refine((v) => (v.startsWith('/') && !v.startsWith('//')) || (/^https?:\/\/[^\s/]+/i.test(v) && URL.canParse(v)), {
        message: `${name} must be an http:// or https:// URL or a path starting with /`,
      })
      .optional(),
  );

const positiveInt = (name: string, fallback: number) =>
  z.coerce
    .number({ error: `${name} must be a whole number` })
    .int(`${name} must be a whole number`)
    .min(1, `${name} must be at least 1`)
    .default(fallback);

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce
    .number({ error: 'PORT must be a number' })
    .int('PORT must be a whole number')
    .min(0, 'PORT must be from 0 to 65535')
    .max(65535, 'PORT must be from 0 to 65535')
    .default(3000),
  HOST: z.string().trim().min(1, 'HOST must not be empty').default('127.0.0.1'),
  PUBLIC_URL: httpUrl('PUBLIC_URL').optional(),
  DATABASE_URL: optionalText.pipe(
    z
      .string()
      .refine((v) => /^postgres(ql)?:\/\//.test(v), {
        message: 'DATABASE_URL must start with postgres:// or postgresql://',
      })
      .optional(),
  ),
  DATA_DIR: z.string().trim().min(1, 'DATA_DIR must not be empty').default('./data'),
  SESSION_SECRET: optionalText.pipe(z.string().min(32, 'SESSION_SECRET must be at least 32 characters').optional()),
  /**
   * Phones whose holder becomes staff once they prove the phone with a texted code (Twilio only).
   * The operator's name for it stays ADMIN_PHONES (in .env files already); the code reads it as
   * `staffPhones` (docs/product.md#glossary: staff).
   */
  ADMIN_PHONES: z
    .string()
    .default('')
    .transform((v, ctx) => parsePhones(v, ctx)),
  TWILIO_ACCOUNT_SID: optionalText,
  TWILIO_AUTH_TOKEN: optionalText,
  TWILIO_FROM_NUMBER: optionalText,
  TWILIO_MESSAGING_SERVICE_SID: optionalText,
  TWILIO_WHATSAPP_FROM: optionalText,
  TWILIO_API_BASE_URL: optionalText.pipe(httpUrl('TWILIO_API_BASE_URL').optional()),
  OPENAI_API_KEY: optionalText,
  OPENAI_BASE_URL: optionalText.pipe(httpUrl('OPENAI_BASE_URL').optional()),
  OPENAI_MODEL: z.string().trim().min(1).default('gpt-4o-mini'),
  /** How long the newsletter model may take before the template writer stands in. */
  OPENAI_TIMEOUT_MS: positiveInt('OPENAI_TIMEOUT_MS', 30_000),
  /** The model that transcribes voice memos, at the same endpoint (decision 0024); a Whisper server names its own. */
  OPENAI_TRANSCRIPTION_MODEL: z.string().trim().min(1, 'OPENAI_TRANSCRIPTION_MODEL must not be empty').default('gpt-4o-mini-transcribe'),
  /** How long one transcription may take; then the voice memo is kept without its words. */
  TRANSCRIPTION_TIMEOUT_MS: positiveInt('TRANSCRIPTION_TIMEOUT_MS', 60_000),
  /** The longest transcript kept, in characters (five minutes of speech is about 4,000); longer ones are cut at a word. */
  TRANSCRIPT_MAX_CHARS: positiveInt('TRANSCRIPT_MAX_CHARS', 5_000),
  /** WhatsApp templates per kind of text, for outside the 24-hour window: "reminder=HX...,newsletter=HX...". */
  TWILIO_WHATSAPP_TEMPLATES: z
    .string()
    .default('')
    .transform((v, ctx) => parseTemplates(v, ctx)),
  /**
   * Who answers STOP, START and HELP on SMS. `twilio` (Twilio's default keyword handling, or
   * Advanced Opt-Out with its replies on): Twilio answers and Loop only applies the word.
   * `loop`: Advanced Opt-Out's START and HELP replies are turned off, and Loop answers them.
   * STOP's confirmation on SMS always comes from Twilio. On WhatsApp Loop answers all three.
   */
  TWILIO_KEYWORD_REPLIES: z.enum(['twilio', 'loop'], { error: 'TWILIO_KEYWORD_REPLIES must be "twilio" or "loop"' }).default('twilio'),
  /**
   * Senders whose inbound texts one process handles one at a time, side by side (each sender's
   * texts in order; decision 0016): texts with photos, keywords or answers to invitations. Plain
   * texts are stored a batch at a time instead. On PostgreSQL each takes a pooled connection while it works.
   */
  INBOUND_CONCURRENCY: positiveInt('INBOUND_CONCURRENCY', 8),
  /**
   * Where a member gets help: an e-mail address or a web address, given in the answer to HELP
   * (CTIA 5.1.3) and in the texts registered with a 10DLC campaign. Required with Twilio in
   * production; elsewhere it defaults to PUBLIC_URL.
   */
  SUPPORT_CONTACT: z
    .string()
    .trim()
    .max(100, 'SUPPORT_CONTACT must be at most 100 characters')
    .refine((v) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v) || /^https?:\/\/[^\s]+$/.test(v), {
      message: 'SUPPORT_CONTACT must be an e-mail address (help@example.com) or a web address (https://example.com/help)',
    })
    .optional(),
  SEND_MAX_ATTEMPTS: positiveInt('SEND_MAX_ATTEMPTS', 5),
  // Days a text's or e-mail's row (its words, raw parameters, addresses, status) is kept (decision 0058).
  MESSAGE_RETENTION_DAYS: positiveInt('MESSAGE_RETENTION_DAYS', 180),
  SEND_RETRY_BASE_SECONDS: z.coerce
    .number({ error: 'SEND_RETRY_BASE_SECONDS must be a number' })
    .min(0, 'SEND_RETRY_BASE_SECONDS must be 0 or more')
    .default(30),
  SEND_RATE_PER_SECOND: z.coerce
    .number({ error: 'SEND_RATE_PER_SECOND must be a number' })
    .min(0, 'SEND_RATE_PER_SECOND must be 0 (no pacing) or more')
    .default(1),
  /**
   * Where e-mail goes out (decision 0047): smtp:// (STARTTLS when the server offers it) or
   * smtps:// (TLS from the start), with user:password@ when the server asks; nodemailer's
   * options as query parameters. Unset: the Mail Simulator keeps every e-mail instead.
   */
  SMTP_URL: optionalText.pipe(
    z
      .string()
      .refine((v) => /^smtps?:\/\/[^\s/]+/i.test(v) && URL.canParse(v), { message: 'SMTP_URL must be an smtp:// or smtps:// URL' })
      .optional(),
  ),
  /** The From of Loop's e-mail: "Name <address>" or an address; its domain needs SPF, DKIM and DMARC (README). */
  MAIL_FROM: z
    .string()
    .trim()
    .refine((v) => /^(?:[^<>]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/.test(v), {
      message: 'MAIL_FROM must be an address (loop@example.com) or "Name <loop@example.com>"',
    })
    .default('Loop <loop@localhost>'),
  /** E-mails a second, across every process (0: no pacing). */
  MAIL_RATE_PER_SECOND: z.coerce
    .number({ error: 'MAIL_RATE_PER_SECOND must be a number' })
    .min(0, 'MAIL_RATE_PER_SECOND must be 0 (no pacing) or more')
    .default(10),
  /** The port of Loop's own SMTP listener for replies; unset: no listener. */
  MAIL_INBOUND_PORT: optionalText.pipe(
    z.coerce
      .number<string | undefined>({ error: 'MAIL_INBOUND_PORT must be a number' })
      .int('MAIL_INBOUND_PORT must be a whole number')
      .min(0, 'MAIL_INBOUND_PORT must be from 0 to 65535')
      .max(65535, 'MAIL_INBOUND_PORT must be from 0 to 65535')
      .optional(),
  ),
  /** The domain of members' reply addresses, reply+{token}@MAIL_REPLY_DOMAIN; its MX points at the listener; unset: MAIL_FROM's domain. */
  MAIL_REPLY_DOMAIN: optionalText.pipe(
    z
      .string()
      .toLowerCase()
      .refine((v) => /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/.test(v), {
        message: 'MAIL_REPLY_DOMAIN must be a domain name, like replies.example.com',
      })
      .optional(),
  ),
  /** Replies one member's address takes in an hour (only those that passed the sender checks), all processes together; more are asked to wait. */
  MAIL_REPLIES_PER_MEMBER_PER_HOUR: positiveInt('MAIL_REPLIES_PER_MEMBER_PER_HOUR', 20),
  /** Replies one authenticated sender (its From, vouched for by SPF, DKIM or DMARC) may send in an hour; never counted by connecting address (decision 0050). */
  MAIL_INBOUND_PER_ADDRESS_PER_HOUR: positiveInt('MAIL_INBOUND_PER_ADDRESS_PER_HOUR', 600),
  AUTH_RATE_LIMIT_PER_IP: positiveInt('AUTH_RATE_LIMIT_PER_IP', 50),
  /** Failed sign-ins per account from one address (decision 0013). */
  AUTH_RATE_LIMIT_PER_ACCOUNT: positiveInt('AUTH_RATE_LIMIT_PER_ACCOUNT', 10),
  /** Failed sign-ins per account from all addresses together; past it a log-in needs a texted code (decision 0028). */
  AUTH_FAILURES_PER_ACCOUNT: positiveInt('AUTH_FAILURES_PER_ACCOUNT', 100),
  /** Consent limits: Loops an account creates, members it adds, invitations a phone gets. */
  LOOPS_PER_ACCOUNT_PER_HOUR: positiveInt('LOOPS_PER_ACCOUNT_PER_HOUR', 10),
  LOOPS_PER_ACCOUNT_PER_DAY: positiveInt('LOOPS_PER_ACCOUNT_PER_DAY', 30),
  MEMBER_ADDS_PER_ACCOUNT_PER_HOUR: positiveInt('MEMBER_ADDS_PER_ACCOUNT_PER_HOUR', 50),
  MEMBER_ADDS_PER_ACCOUNT_PER_DAY: positiveInt('MEMBER_ADDS_PER_ACCOUNT_PER_DAY', 200),
  INVITATIONS_PER_PHONE_PER_DAY: positiveInt('INVITATIONS_PER_PHONE_PER_DAY', 3),
  /** Joins through one invite link per hour and per day (decision 0053); they never count against the owner's adds. */
  JOINS_PER_INVITE_LINK_PER_HOUR: positiveInt('JOINS_PER_INVITE_LINK_PER_HOUR', 10),
  JOINS_PER_INVITE_LINK_PER_DAY: positiveInt('JOINS_PER_INVITE_LINK_PER_DAY', 30),
  /** Group messages a Loop's owner may send (or schedule) to it per day (decision 0042); staff are not limited. */
  GROUP_MESSAGES_PER_LOOP_PER_DAY: positiveInt('GROUP_MESSAGES_PER_LOOP_PER_DAY', 3),
  /**
   * Behind a load balancer: which hops of X-Forwarded-For to trust (decision 0029). The number of
   * proxies in front of Loop (1 behind one load balancer), or their addresses and CIDR ranges; never
   * `true`, which trusts every hop and so the left-most address, which anyone can write.
   */
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((v, ctx) => parseTrustProxy(v, ctx)),
  /**
   * The countries Loop texts (ISO codes: "US,CA"), or `all`; unset: the country of
   * TWILIO_FROM_NUMBER, or all with the Phone Simulator (decision 0030).
   */
  SMS_COUNTRIES: z
    .string()
    .default('')
    .transform((v, ctx) => parseCountries(v, ctx)),
  /**
   * Code texts nobody typed in, in an hour, for the whole service, past which the proof-of-work
   * hardens (decisions 0030 and 0051); a quarter of it per country abroad.
   */
  CODE_TEXTS_PER_HOUR: positiveInt('CODE_TEXTS_PER_HOUR', 100),
  /** Code texts nobody typed in, per number prefix (all but the last 4 digits) per hour (decision 0051). */
  CODE_TEXTS_PER_PREFIX: positiveInt('CODE_TEXTS_PER_PREFIX', 10),
  /** A proof-of-work before a code is texted: `on` or `off`; unset, on except with NODE_ENV=test. */
  SIGNUP_PROOF_OF_WORK: optionalText.pipe(
    z
      .enum(['on', 'off'], { error: 'SIGNUP_PROOF_OF_WORK must be "on" or "off"' })
      .transform((v) => v === 'on')
      .optional(),
  ),
  /** What happens at the end of each newsletter period: send it, leave a draft for staff, or nothing. */
  AUTO_NEWSLETTERS: z.enum(['send', 'draft', 'off'], { error: 'AUTO_NEWSLETTERS must be send, draft or off' }).default('send'),
  /**
   * When Loop starts no texts, in each recipient's own time (47 CFR 64.1200(c)(1): 8 am to 9 pm):
   * "HH:MM-HH:MM", or "off" where the operator's rules differ. Decision 0037.
   */
  QUIET_HOURS: z
    .string()
    .trim()
    .default(DEFAULT_QUIET_HOURS)
    .transform((value, ctx) => {
      const quiet = parseQuietHours(value);
      if (quiet === undefined) {
        ctx.addIssue({ code: 'custom', message: 'QUIET_HOURS must be two times like 21:00-08:00, or off' });
        return z.NEVER;
      }
      return quiet;
    }),
  /** Run reminders and automatic newsletters in this process (a web-only process sets false). */
  SCHEDULER: z
    .enum(['true', 'false'], { error: 'SCHEDULER must be "true" or "false"' })
    .default('true')
    .transform((v) => v === 'true'),
  /** The landing page's links; unset, they point to the demo newsletter and the /guide page. */
  EXAMPLE_NEWSLETTER_URL: linkUrl('EXAMPLE_NEWSLETTER_URL'),
  DEMO_VIDEO_URL: linkUrl('DEMO_VIDEO_URL'),
  GUIDE_URL: linkUrl('GUIDE_URL'),
  /** Stored files (media, data exports) in an S3-compatible bucket instead of DATA_DIR/media (several machines). */
  S3_BUCKET: optionalText,
  /** For S3-compatible stores (MinIO, R2, Spaces...); unset means AWS itself. */
  S3_ENDPOINT: optionalText.pipe(httpUrl('S3_ENDPOINT').optional()),
  S3_REGION: z.string().trim().min(1, 'S3_REGION must not be empty').default('us-east-1'),
  /** Unset: the SDK's own chain (instance role, AWS_* variables, ~/.aws). */
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  /** bucket in the path (http://host/bucket/key), as most self-hosted stores need. */
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false'], { error: 'S3_FORCE_PATH_STYLE must be "true" or "false"' })
    .default('false')
    .transform((v) => v === 'true'),
  /** ffmpeg for voice memos and videos (decision 0023): this path, else `ffmpeg` on PATH, else they are refused. */
  FFMPEG_PATH: optionalText,
  /** The longest voice memo (or any audio) kept, in seconds. */
  VOICE_MAX_SECONDS: positiveInt('VOICE_MAX_SECONDS', 300),
  /** The longest video kept, in seconds. */
  VIDEO_MAX_SECONDS: positiveInt('VIDEO_MAX_SECONDS', 120),
  /** A voice memo or video by MMS: Twilio takes about 5 MB per message in all. */
  MMS_MEDIA_MAX_BYTES: positiveInt('MMS_MEDIA_MAX_BYTES', 5 * 1024 * 1024),
  /** A voice memo or video by WhatsApp: WhatsApp's own limit is 16 MB. */
  WHATSAPP_MEDIA_MAX_BYTES: positiveInt('WHATSAPP_MEDIA_MAX_BYTES', 16 * 1024 * 1024),
  /**
   * The most decoding one video may ask for, in millions of pixels: width x height x frames per
   * second x seconds, from its header before anything is decoded (decision 0032). 7,465 is two
   * minutes of 1080p at 30 frames a second; 4K at 60 frames a second gets 15 seconds.
   */
  VIDEO_DECODE_BUDGET_MEGAPIXELS: positiveInt('VIDEO_DECODE_BUDGET_MEGAPIXELS', 7465),
  /** One ffmpeg run is ended (SIGKILL) after this long, and its file refused. */
  FFMPEG_TIMEOUT_SECONDS: positiveInt('FFMPEG_TIMEOUT_SECONDS', 120),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
    })
    .default('info'),
  /** One log line per request; unset: on, except with NODE_ENV=production. */
  LOG_REQUESTS: optionalText.pipe(
    z
      .enum(['true', 'false'], { error: 'LOG_REQUESTS must be "true" or "false"' })
      .transform((v) => v === 'true')
      .optional(),
  ),
  /** The Bearer token Prometheus sends to GET /metrics; setting it turns metrics on. */
  METRICS_TOKEN: optionalText.pipe(z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional()),
  /** true asks for metrics (then METRICS_TOKEN is required), false turns them off; unset: on when METRICS_TOKEN is set. */
  METRICS: optionalText.pipe(
    z
      .enum(['true', 'false'], { error: 'METRICS must be "true" or "false"' })
      .transform((v) => v === 'true')
      .optional(),
  ),
});

/** Every variable Loop reads, in the order `.env.example` lists them. */
export const CONFIG_VARIABLES = Object.keys(envSchema.shape) as (keyof Env)[];

/** What each variable is when it is not set (undefined: none). */
export function configDefaults(): Partial<Env> {
  return envSchema.parse({});
}

export type Env = z.output<typeof envSchema>;

/** "+1 415 555 0100, +44..." into E.164 numbers; a bad entry is reported like any other bad variable. */
function parsePhones(value: string, ctx: z.RefinementCtx): string[] {
  const phones: string[] = [];
  for (const entry of value
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '')) {
    const phone = toE164(entry);
    if (phone) phones.push(phone);
    else ctx.addIssue({ code: 'custom', message: `"${entry}" is not an international phone number, like +1 415 555 0100` });
  }
  return phones;
}

const TRUST_PROXY_HELP =
  'write the number of proxies in front of Loop (TRUST_PROXY=1 behind one load balancer) or their addresses and ranges (TRUST_PROXY=10.0.0.0/8)';

/**
 * TRUST_PROXY as Fastify's trustProxy takes it: false, a hop count, or addresses, CIDR ranges and
 * proxy-addr's names (loopback, linklocal, uniquelocal). `true` is refused: it trusts every hop.
 */
function parseTrustProxy(value: string, ctx: z.RefinementCtx): false | number | string[] {
  const v = value.trim();
  if (v === '' || v === 'false' || v === '0') return false;
  if (v === 'true') {
    ctx.addIssue({
      code: 'custom',
      message: `TRUST_PROXY=true trusts every hop of X-Forwarded-For, so anyone can choose the address that rate limits count: ${TRUST_PROXY_HELP}`,
    });
    return false;
  }
  if (/^\d+$/.test(v)) return Number(v);
  const entries = v
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  for (const entry of entries) {
    if (!isProxyEntry(entry))
      ctx.addIssue({ code: 'custom', message: `"${entry}" is not a hop count, an address or a CIDR range: ${TRUST_PROXY_HELP}` });
  }
  // A list that trusts every address is `true` written another way (decision 0054).
  const covered = familyCoveredBy(entries.filter(isProxyEntry));
  if (covered) {
    ctx.addIssue({
      code: 'custom',
      message: `TRUST_PROXY=${v} covers every ${covered} address, which trusts every hop of X-Forwarded-For as true would, so anyone can choose the address that rate limits count: ${TRUST_PROXY_HELP}`,
    });
  }
  return entries;
}

function isProxyEntry(entry: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

/**
 * Whether a list of addresses and CIDR ranges (TRUST_PROXY's, decision 0029) covers every IPv4 or
 * every IPv6 address, as `true` does: `0.0.0.0/1,128.0.0.0/1` or `::/0` trusts any hop a client
 * writes. Ranges are read as proxy-addr matches them: an IPv4 range also matches IPv4-mapped IPv6
 * addresses and an IPv6 range over ::ffff:0:0/96 matches IPv4 ones, so both live here in one
 * 128-bit space with IPv4 at ::ffff:0:0/96. Names (loopback...) cover nothing here.
 */
function familyCoveredBy(entries: readonly string[]): 'IPv4' | 'IPv6' | null {
  const ranges = entries.flatMap((entry) => rangeOf(entry) ?? []).sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  if (covers(ranges, 0n, (1n << 128n) - 1n)) return 'IPv6';
  if (covers(ranges, MAPPED, MAPPED + (1n << 32n) - 1n)) return 'IPv4';
  return null;
}

const MAPPED = 0xffffn << 32n;

interface Range {
  start: bigint;
  end: bigint;
}

function rangeOf(entry: string): Range | null {
  const [address = '', bits] = entry.split('/');
  let base: bigint;
  let hostBits: number;
  if (isIPv4(address)) {
    base = MAPPED + ipv4(address);
    hostBits = 32 - Number(bits ?? 32);
  } else if (isIPv6(address)) {
    base = ipv6(address);
    hostBits = 128 - Number(bits ?? 128);
  } else return null;
  if (!Number.isInteger(hostBits) || hostBits < 0) return null;
  const size = 1n << BigInt(hostBits);
  const start = (base / size) * size;
  return { start, end: start + size - 1n };
}

function ipv4(address: string): bigint {
  return address.split('.').reduce((n, part) => (n << 8n) + BigInt(Number(part)), 0n);
}

function ipv6(address: string): bigint {
  let text = address.split('%')[0]!.toLowerCase();
  // A dotted IPv4 tail (::ffff:1.2.3.4) is the last two groups.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (dotted) {
    const n = ipv4(dotted);
    text = `${text.slice(0, -dotted.length)}${(n >> 16n).toString(16)}:${(n & 0xffffn).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.reduce((n, group) => (n << 16n) + BigInt(parseInt(group, 16)), 0n);
}

/** Whether the ranges (sorted by start) leave no gap between start and end. */
function covers(ranges: readonly Range[], start: bigint, end: bigint): boolean {
  let next = start;
  for (const range of ranges) {
    if (range.end < next) continue;
    if (range.start > next) return false;
    next = range.end + 1n;
    if (next > end) return true;
  }
  return next > end;
}

/** "US, ca" -> ["US", "CA"]; "all" -> "all"; "" -> undefined (the default). */
function parseCountries(value: string, ctx: z.RefinementCtx): string[] | 'all' | undefined {
  const v = value.trim();
  if (v === '') return undefined;
  if (v.toLowerCase() === 'all') return 'all';
  const codes = v
    .split(',')
    .map((e) => e.trim().toUpperCase())
    .filter((e) => e !== '');
  for (const code of codes) {
    if (!isPhoneCountry(code)) ctx.addIssue({ code: 'custom', message: `"${code}" is not a two-letter country code, like US or GB` });
  }
  return codes;
}

/** A kind's former name, still read in TWILIO_WHATSAPP_TEMPLATES: `bulk` is `group_message` since migration 0012. */
const FORMER_KIND_NAMES: Record<string, string> = { bulk: 'group_message' };

/** "kind=HX...,kind=HX..." into a map; a bad entry is reported like any other bad variable. */
function parseTemplates(value: string, ctx: z.RefinementCtx): Record<string, string> {
  const templates: Record<string, string> = {};
  for (const entry of value
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '')) {
    const match = /^([a-z_]+)\s*=\s*(HX[0-9a-f]{32})$/i.exec(entry);
    if (!match?.[1] || !match[2]) {
      ctx.addIssue({ code: 'custom', message: `"${entry}" is not kind=HX followed by 32 hex digits` });
      continue;
    }
    const kind = match[1].toLowerCase();
    templates[FORMER_KIND_NAMES[kind] ?? kind] = match[2];
  }
  return templates;
}

export interface Config extends Omit<
  Env,
  'PUBLIC_URL' | 'SESSION_SECRET' | 'SMS_COUNTRIES' | 'SIGNUP_PROOF_OF_WORK' | 'MAIL_REPLY_DOMAIN' | 'ADMIN_PHONES'
> {
  /** ADMIN_PHONES as E.164 numbers: their holders become staff once they prove the phone. */
  staffPhones: string[];
  PUBLIC_URL: string;
  SESSION_SECRET: string;
  /** MAIL_REPLY_DOMAIN, or MAIL_FROM's domain. */
  MAIL_REPLY_DOMAIN: string;
  /** DATA_DIR as an absolute path. */
  dataDir: string;
  secureCookies: boolean;
  messagingProvider: 'twilio' | 'simulator';
  /** LOG_REQUESTS, or its default for NODE_ENV. */
  logRequests: boolean;
  /** GET /metrics answers (METRICS_TOKEN is set, and METRICS is not false). */
  metricsOn: boolean;
  /** SMS_COUNTRIES, or its default: the country of TWILIO_FROM_NUMBER, or all with the simulator. */
  smsCountries: string[] | 'all';
  /** SIGNUP_PROOF_OF_WORK, or its default for NODE_ENV. */
  proofOfWork: boolean;
  /** SUPPORT_CONTACT, or PUBLIC_URL where it may be left out. */
  supportContact: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Loop cannot start: the configuration is invalid.\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Reads the environment once. Throws a ConfigError that lists every bad variable, so a person
 * can fix them all in one go.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  const crossField = [...twilioProblems(env), ...staffProblems(env), ...s3Problems(env), ...metricsProblems(env), ...countryProblems(env)];
  if (!parsed.success || crossField.length > 0) {
    const issues = parsed.success ? [] : parsed.error.issues;
    const problems = issues.map((issue) => {
      const name = issue.path.join('.') || 'environment';
      const given = issue.path.length === 1 ? env[String(issue.path[0])] : undefined;
      const shown = given === undefined ? '' : ` (got ${JSON.stringify(secretSafe(name, given))})`;
      return `${name}: ${issue.message}${shown}`;
    });
    throw new ConfigError([...problems, ...crossField]);
  }
  const { ADMIN_PHONES: staffPhones, ...e } = parsed.data;
  // npm runs workspace scripts inside the workspace; INIT_CWD is where the person typed the command.
  const dataDir = path.resolve(env.INIT_CWD ?? process.cwd(), e.DATA_DIR);
  const publicUrl = e.PUBLIC_URL ?? `http://localhost:${e.PORT}`;
  return {
    ...e,
    staffPhones,
    PUBLIC_URL: publicUrl,
    SESSION_SECRET: e.SESSION_SECRET ?? readOrCreateSecret(dataDir),
    dataDir,
    secureCookies: publicUrl.startsWith('https://'),
    messagingProvider: e.TWILIO_ACCOUNT_SID ? 'twilio' : 'simulator',
    logRequests: e.LOG_REQUESTS ?? e.NODE_ENV !== 'production',
    metricsOn: e.METRICS_TOKEN !== undefined && e.METRICS !== false,
    smsCountries: e.SMS_COUNTRIES ?? defaultCountries(e.TWILIO_ACCOUNT_SID, e.TWILIO_FROM_NUMBER),
    proofOfWork: e.SIGNUP_PROOF_OF_WORK ?? e.NODE_ENV !== 'test',
    supportContact: e.SUPPORT_CONTACT ?? publicUrl,
    MAIL_REPLY_DOMAIN: e.MAIL_REPLY_DOMAIN ?? mailDomain(e.MAIL_FROM),
  };
}

/**
 * The domain of members' reply addresses when Loop takes replies by e-mail (MAIL_INBOUND_PORT set;
 * decision 0049), else undefined: then e-mails carry no reply address.
 */
export function mailReplyDomain(config: Pick<Config, 'MAIL_INBOUND_PORT' | 'MAIL_REPLY_DOMAIN'>): string | undefined {
  return config.MAIL_INBOUND_PORT === undefined ? undefined : config.MAIL_REPLY_DOMAIN;
}

/** The domain of an address, bare or in "Name <address>". */
export function mailDomain(from: string): string {
  const address = /<([^>]+)>/.exec(from)?.[1] ?? from;
  return address.slice(address.lastIndexOf('@') + 1).toLowerCase();
}

/** Without SMS_COUNTRIES: the Twilio number's country; the simulator texts nobody for real. */
function defaultCountries(accountSid: string | undefined, fromNumber: string | undefined): string[] | 'all' {
  if (!accountSid) return 'all';
  const country = fromNumber ? phoneKind(fromNumber).country : null;
  return country ? [country] : [];
}

/** With Twilio and no SMS_COUNTRIES, the countries come from TWILIO_FROM_NUMBER: it must have one. */
function countryProblems(env: NodeJS.ProcessEnv): string[] {
  const set = (name: string) => (env[name] ?? '').trim() !== '';
  if (!set('TWILIO_ACCOUNT_SID') || set('SMS_COUNTRIES')) return [];
  const from = (env.TWILIO_FROM_NUMBER ?? '').trim();
  // Neither sender set: twilioProblems says so.
  if ((from !== '' && phoneKind(from).country) || (from === '' && !set('TWILIO_MESSAGING_SERVICE_SID'))) return [];
  return [
    'SMS_COUNTRIES: set the countries Loop may text (SMS_COUNTRIES=US,CA, or all): without it they are the country of TWILIO_FROM_NUMBER, and there is none',
  ];
}

/**
 * The OpenAI-compatible endpoint of the newsletter writer and the voice memo transcriber: set by
 * OPENAI_API_KEY or OPENAI_BASE_URL (a local server needs no key); null when neither is.
 */
export function openAiEndpoint(
  config: Pick<Env, 'OPENAI_API_KEY' | 'OPENAI_BASE_URL'>,
): { apiKey: string | undefined; baseUrl: string | undefined } | null {
  if (!config.OPENAI_API_KEY && !config.OPENAI_BASE_URL) return null;
  return { apiKey: config.OPENAI_API_KEY, baseUrl: config.OPENAI_BASE_URL };
}

/** S3 keys come in pairs; S3 settings without a bucket would silently keep stored files on local disk. */
function s3Problems(env: NodeJS.ProcessEnv): string[] {
  const set = (name: string) => (env[name] ?? '').trim() !== '';
  const problems: string[] = [];
  if (set('S3_ACCESS_KEY_ID') !== set('S3_SECRET_ACCESS_KEY')) {
    problems.push(
      "S3_ACCESS_KEY_ID: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both, or neither to use the SDK's own credentials",
    );
  }
  if (!set('S3_BUCKET') && ['S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'].some(set)) {
    problems.push('S3_BUCKET: S3_BUCKET is required when other S3_ settings are given');
  }
  return problems;
}

/** Metrics asked for without the token that guards them. */
function metricsProblems(env: NodeJS.ProcessEnv): string[] {
  if ((env.METRICS ?? '').trim() !== 'true' || (env.METRICS_TOKEN ?? '').trim() !== '') return [];
  return ['METRICS_TOKEN: METRICS=true needs METRICS_TOKEN, the Bearer token (16+ characters) Prometheus sends to GET /metrics'];
}

/**
 * Reads `.env` from the working directory into process.env, if the file is there, with Node's own
 * parser (process.loadEnvFile); variables already set in the environment win. Node skips a line
 * it cannot read without a word: here such a line stops the start with its line number, so a
 * typo does not silently leave a setting at its default. Values are never shown (they may be secrets).
 */
export function loadEnvFile(dir: string = process.env.INIT_CWD ?? process.cwd()): string | undefined {
  const file = path.join(dir, '.env');
  if (!existsSync(file)) return undefined;
  const problems = envFileProblems(readFileSync(file, 'utf8'));
  if (problems.length > 0) throw new ConfigError(problems.map((p) => `${file} ${p}`));
  process.loadEnvFile(file);
  return file;
}

/** Lines of a .env file that are not blank, a # comment, or NAME=value (quoted values may span lines). */
export function envFileProblems(text: string): string[] {
  const problems: string[] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  for (let index = 0; index < lines.length; index++) {
    const line = (lines[index] ?? '').trim();
    if (line === '' || line.startsWith('#')) continue;
    const match = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*)$/.exec(line);
    if (!match) {
      const name = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\b/.exec(line)?.[1];
      problems.push(
        `line ${index + 1}: not NAME=value${name ? ` (${name} has no "=")` : ''}; write it as NAME=value, or start it with # to keep it as a comment`,
      );
      continue;
    }
    // A quoted value that does not close on its own line goes on until the line where it does.
    const value = match[2] ?? '';
    const quote = value[0];
    if (quote === '"' || quote === "'" || quote === '`') {
      if (value.indexOf(quote, 1) !== -1) continue;
      const opened = index;
      while (++index < lines.length && !(lines[index] ?? '').includes(quote));
      if (index >= lines.length) problems.push(`line ${opened + 1}: the value's opening ${quote} is never closed`);
    }
  }
  return problems;
}

/** Twilio needs its settings together: checked on the raw environment, so they list beside the rest. */
function twilioProblems(env: NodeJS.ProcessEnv): string[] {
  const set = (name: string) => (env[name] ?? '').trim() !== '';
  const configured = ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM_NUMBER', 'TWILIO_MESSAGING_SERVICE_SID'].some(set);
  if (!configured) return [];
  const problems: string[] = [];
  for (const name of ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN']) {
    if (!set(name)) problems.push(`${name}: ${name} is required when Twilio is configured`);
  }
  if (!set('TWILIO_FROM_NUMBER') && !set('TWILIO_MESSAGING_SERVICE_SID')) {
    problems.push('TWILIO_FROM_NUMBER: TWILIO_FROM_NUMBER or TWILIO_MESSAGING_SERVICE_SID is required when Twilio is configured');
  }
  // Carriers require a support contact in the answer to HELP (CTIA 5.1.3).
  if ((env.NODE_ENV ?? '').trim() === 'production' && !set('SUPPORT_CONTACT')) {
    problems.push(
      'SUPPORT_CONTACT: SUPPORT_CONTACT is required with Twilio in production: the e-mail or web address where members get help (it is in the answer to HELP)',
    );
  }
  return problems;
}

/**
 * Staff are granted, never claimed (decision 0013). ADMIN_EMAILS made whoever registered an
 * address staff: it is refused, not ignored, so an operator who relied on it learns what replaced
 * it. ADMIN_PHONES needs real texts: with the simulator anyone could receive its code.
 */
function staffProblems(env: NodeJS.ProcessEnv): string[] {
  const problems: string[] = [];
  if ((env.ADMIN_EMAILS ?? '').trim() !== '') {
    problems.push(
      'ADMIN_EMAILS: ADMIN_EMAILS is no longer read: an email address alone never makes anyone staff. Grant staff with `npm run admin -- grant EMAIL`, or set ADMIN_PHONES (with Twilio) and sign up with that phone.',
    );
  }
  if ((env.ADMIN_PHONES ?? '').trim() !== '' && (env.TWILIO_ACCOUNT_SID ?? '').trim() === '') {
    problems.push(
      'ADMIN_PHONES: ADMIN_PHONES needs Twilio: with the Phone Simulator anyone can read the code for any phone. Use `npm run admin -- grant EMAIL` instead.',
    );
  }
  return problems;
}

function secretSafe(name: string, value: string): string {
  return /SECRET|TOKEN|KEY|PASSWORD|DATABASE_URL/.test(name) ? '***' : value;
}

function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'session-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  try {
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (error) {
    // Another process wrote it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8').trim();
    throw error;
  }
}
