import { randomBytes } from 'node:crypto';
import twilio from 'twilio';
import type { TestApp } from './app';

/** A Twilio SID with the given prefix (SM, MM, ME...). */
export const sid = (prefix: string) => `${prefix}${randomBytes(16).toString('hex')}`;

export const OUR_NUMBER = '+15005550006';
export const OUR_WHATSAPP = 'whatsapp:+14155238886';

/** The parameters Twilio posts for an inbound SMS (a real set, with our values). */
export function smsParams(input: { accountSid: string; from: string; body: string; messageSid?: string }): Record<string, string> {
  const messageSid = input.messageSid ?? sid('SM');
  return {
    ToCountry: 'US',
    ToState: 'CA',
    SmsMessageSid: messageSid,
    NumMedia: '0',
    ToCity: 'SAN FRANCISCO',
    FromZip: '94105',
    SmsSid: messageSid,
    FromState: 'CA',
    SmsStatus: 'received',
    FromCity: 'SAN FRANCISCO',
    Body: input.body,
    FromCountry: 'US',
    To: OUR_NUMBER,
    ToZip: '94105',
    NumSegments: '1',
    MessageSid: messageSid,
    AccountSid: input.accountSid,
    From: input.from,
    ApiVersion: '2010-04-01',
  };
}

/** An MMS: Twilio's media URLs (here on the fake Twilio) with their content types. */
export function mmsParams(input: {
  accountSid: string;
  from: string;
  body: string;
  media: { url: string; contentType: string }[];
}): Record<string, string> {
  const messageSid = sid('MM');
  const params = smsParams({ ...input, messageSid });
  params.NumMedia = String(input.media.length);
  input.media.forEach((m, i) => {
    params[`MediaContentType${i}`] = m.contentType;
    params[`MediaUrl${i}`] = m.url;
  });
  return params;
}

/** The parameters of an inbound WhatsApp text. */
export function whatsappParams(input: { accountSid: string; from: string; body: string; profileName?: string }): Record<string, string> {
  const messageSid = sid('SM');
  const waId = input.from.replace('+', '');
  return {
    SmsMessageSid: messageSid,
    NumMedia: '0',
    ProfileName: input.profileName ?? 'Ada',
    MessageType: 'text',
    SmsSid: messageSid,
    WaId: waId,
    SmsStatus: 'received',
    Body: input.body,
    To: OUR_WHATSAPP,
    NumSegments: '1',
    ReferralNumMedia: '0',
    MessageSid: messageSid,
    AccountSid: input.accountSid,
    From: `whatsapp:${input.from}`,
    ApiVersion: '2010-04-01',
    ChannelMetadata: JSON.stringify({ type: 'whatsapp', data: { context: { ProfileName: input.profileName ?? 'Ada', WaId: waId } } }),
  };
}

/** The parameters of a status callback. */
export function statusParams(input: { accountSid: string; messageSid: string; status: string; to: string; errorCode?: string }) {
  return {
    SmsSid: input.messageSid,
    SmsStatus: input.status,
    MessageStatus: input.status,
    To: input.to,
    MessageSid: input.messageSid,
    AccountSid: input.accountSid,
    From: OUR_NUMBER,
    ApiVersion: '2010-04-01',
    ...(input.errorCode ? { ErrorCode: input.errorCode } : {}),
  };
}

/** Posts a form to a webhook as Twilio would, signed with `authToken` unless `signature` is given. */
export function postWebhook(
  app: TestApp,
  path: string,
  params: Record<string, string>,
  options: { authToken: string; publicUrl?: string; signature?: string | null },
) {
  const url = `${options.publicUrl ?? 'https://loop.example.com'}${path}`;
  const signature = options.signature === undefined ? twilio.getExpectedTwilioSignature(options.authToken, url, params) : options.signature;
  return app.inject({
    method: 'POST',
    url: path,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(signature === null ? {} : { 'x-twilio-signature': signature }),
    },
    payload: new URLSearchParams(params).toString(),
  });
}
