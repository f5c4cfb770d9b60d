/**
 * How many SMS segments carriers count for a text: what a sender's rate is measured in (a US
 * long code sends 1 segment a second, not 1 text). Twilio's rules
 * (https://www.twilio.com/docs/glossary/what-sms-character-limit): a text of GSM-7 characters
 * only is one segment up to 160 characters, else 153 per segment (7 go to the header that joins
 * them); one character outside GSM-7 makes the whole text UCS-2: 70 UTF-16 units, else 67 per
 * segment. GSM-7's extension characters (such as `€`, `[`, `{`) take two.
 */
export function smsSegments(body: string): number {
  if (body === '') return 1;
  let septets = 0;
  for (const char of body) {
    if (GSM7_BASIC.has(char)) septets += 1;
    else if (GSM7_EXTENSION.has(char)) septets += 2;
    else return ucs2Segments(body);
  }
  return septets <= 160 ? 1 : Math.ceil(septets / 153);
}

/** Whether every character of `body` is in the GSM-7 alphabet (basic set or extension). */
export function isGsm7(body: string): boolean {
  for (const char of body) if (!GSM7_BASIC.has(char) && !GSM7_EXTENSION.has(char)) return false;
  return true;
}

/** The characters of `body` outside GSM-7, each once: any one makes the whole text UCS-2. */
export function nonGsm7Characters(body: string): string[] {
  return [...new Set([...body].filter((char) => !GSM7_BASIC.has(char) && !GSM7_EXTENSION.has(char)))];
}

function ucs2Segments(body: string): number {
  // UTF-16 units, as carriers count UCS-2: an emoji takes two.
  return body.length <= 70 ? 1 : Math.ceil(body.length / 67);
}

// 3GPP TS 23.038, the GSM 7-bit default alphabet and its extension table.
const GSM7_BASIC = new Set(
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà',
);
const GSM7_EXTENSION = new Set('\f^{}\\[~]|€');
