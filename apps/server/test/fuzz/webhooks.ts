import fc from 'fast-check';
import twilio from 'twilio';
import { percentEncode, weirdString, wrongValue } from './arbitraries';
import { rows, type PreparedRequest, type RouteFuzz } from './harness';
import type { World } from './world';

/** The Twilio settings of the webhook fuzz app (no Twilio is called: no worker runs). */
export const TWILIO_ENV = {
  TWILIO_ACCOUNT_SID: `AC${'f'.repeat(32)}`,
  TWILIO_AUTH_TOKEN: 'fuzz-auth-token-0123456789abcdef',
  TWILIO_FROM_NUMBER: '+15005550006',
  PUBLIC_URL: 'https://loop.example.com',
};

const KEYS = [
  'MessageSid',
  'SmsMessageSid',
  'SmsSid',
  'AccountSid',
  'From',
  'To',
  'Body',
  'NumMedia',
  'MediaUrl0',
  'MediaContentType0',
  'MessageStatus',
  'SmsStatus',
  'ErrorCode',
  'OptOutType',
  'ProfileName',
  'WaId',
  'CallSid',
  'StirVerstat',
  'Digits',
  'RecordingUrl',
  'RecordingSid',
];
const value = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '+14155550100',
      'whatsapp:+14155550100',
      'SM0123456789abcdef0123456789abcdef',
      'delivered',
      'failed',
      'undelivered',
      '21610',
      'STOP',
      'START',
      'HELP',
      '__proto__',
      'constructor',
      'toString',
      '1',
      '0',
      '99',
      'https://api.twilio.com/x.jpg',
      'image/jpeg',
    ),
  },
  { weight: 2, arbitrary: fc.stringMatching(/^SM[0-9a-f]{32}$/) },
  { weight: 3, arbitrary: weirdString.filter((s) => s.length < 70_000) },
);
const pair = fc.tuple(
  fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...KEYS) }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) }),
  value,
);
/** A text as Twilio would post it, with odd values in odd places. */
const inbound = fc.record({
  MessageSid: fc.stringMatching(/^(SM|MM)[0-9a-f]{32}$/),
  From: fc.oneof(fc.constantFrom('+14155550100', 'whatsapp:+14155550100', '+447700900123'), weirdString),
  To: fc.constantFrom('+15005550006', 'whatsapp:+14155238886'),
  Body: weirdString,
  NumMedia: fc.constantFrom('0', '1', '2', '-1', 'x'),
});
/** Twilio-like form parameters: known names with odd values, unknown names, sometimes a name twice. */
const form = fc
  .tuple(fc.option(inbound, { nil: undefined }), fc.array(pair, { maxLength: 8 }))
  .map(([base, pairs]) => [...Object.entries(base ?? {}), ...pairs].map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join('&'));
const contentType = fc.oneof(
  { weight: 8, arbitrary: fc.constant('application/x-www-form-urlencoded') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'application/json',
      'text/plain',
      'multipart/form-data; boundary=x',
      'application/x-www-form-urlencoded; charset=utf-8',
      '',
    ),
  },
);
/** Which signature a case carries: none, garbage, Twilio's over these parameters, or one for another URL. */
const signature = fc.constantFrom('none', 'garbage', 'valid', 'valid', 'otherUrl').map((mode) => ({ 'x-fuzz-signature': mode }));

/** What the server will read from the body: a form, or (wrongly, but it parses) a JSON object. */
function paramsOf(request: PreparedRequest): Record<string, string> {
  if (!request.headers['content-type']?.startsWith('application/json'))
    return Object.fromEntries(new URLSearchParams(request.payload ?? ''));
  try {
    const parsed: unknown = JSON.parse(request.payload ?? '');
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}

function sign(request: PreparedRequest): PreparedRequest {
  const { 'x-fuzz-signature': mode = 'none', ...headers } = request.headers;
  // Sent along (the server ignores it) so that check() knows what the case was.
  headers['x-fuzz-signed'] = mode === 'valid' ? 'yes' : 'no';
  if (mode === 'garbage') headers['x-twilio-signature'] = 'bm90IGEgc2lnbmF0dXJl';
  if (mode === 'valid' || mode === 'otherUrl') {
    const params = paramsOf(request);
    const url = `${TWILIO_ENV.PUBLIC_URL}${mode === 'valid' ? request.url : '/api/webhooks/twilio/other'}`;
    headers['x-twilio-signature'] = twilio.getExpectedTwilioSignature(TWILIO_ENV.TWILIO_AUTH_TOKEN, url, params);
  }
  return { ...request, headers };
}

/** Only Twilio's own signature, over this URL and these parameters, gets anything done. */
function forgedIsRefused(request: PreparedRequest, res: { statusCode: number }): string | null {
  return request.headers['x-fuzz-signed'] === 'no' && res.statusCode < 400
    ? `a request without a valid signature got ${res.statusCode}`
    : null;
}

export function webhookRoutes(_world: World): RouteFuzz[] {
  const formBody = fc.record({
    payload: fc.oneof({ weight: 20, arbitrary: form }, { weight: 1, arbitrary: fc.constant(`Body=${'x'.repeat(70_000)}`) }),
    contentType,
  });
  // The same parameters as JSON: Fastify parses it, so it must meet the same checks.
  const jsonBody = fc
    .tuple(inbound, fc.dictionary(fc.constantFrom(...KEYS), fc.oneof(value, wrongValue), { maxKeys: 4 }))
    .map(([base, extra]) => ({ payload: JSON.stringify({ ...base, ...extra }), contentType: 'application/json' }));
  const body = fc.oneof({ weight: 5, arbitrary: formBody }, { weight: 1, arbitrary: jsonBody });
  return [
    {
      route: 'POST /api/webhooks/twilio/messages',
      body,
      headers: signature,
      prepare: sign,
      check: forgedIsRefused,
      // Stored once per MessageSid: a retry stores nothing new.
      success: rows({ messages: [0, 1] }),
    },
    {
      route: 'POST /api/webhooks/twilio/status',
      body,
      headers: signature,
      prepare: sign,
      check: forgedIsRefused,
      success: rows({ phone_opt_outs: [0, 1] }),
    },
    // The phone line (decision 0067): the call and each of its steps, signed like the texts' webhook;
    // a step without its call's tagged state is refused, and nothing adds a row but a recording's.
    ...['', '/pin', '/loop', '/play', '/menu', '/recorded'].map((step) => ({
      route: `POST /api/webhooks/twilio/voice${step}`,
      body,
      headers: signature,
      prepare: sign,
      check: forgedIsRefused,
      success: rows({ messages: [0, 1] }),
    })),
  ];
}
