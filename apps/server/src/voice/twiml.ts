import twilio from 'twilio';
import type { SpokenSection } from './newsletter-speech';

const { VoiceResponse } = twilio.twiml;
type Response = InstanceType<typeof VoiceResponse>;

/** Twilio's <Say> attributes (https://www.twilio.com/docs/voice/twiml/say). */
const VOICE = { language: 'en-US' } as const;

/** What the phone line says, word for word (decision 0067). */
export const CALL_WORDS = {
  unknown:
    'This is Loop, the newsletter a family or group writes together by text. To hear one here, ask someone in a Loop to invite this phone number. Goodbye.',
  optedOut: 'This phone asked Loop to stop. To hear from Loop again, text START to this number. Goodbye.',
  askPin:
    'Welcome to Loop. Please enter your four-digit phone PIN. To set one, text PIN and four digits to this number, or set it on the Loop website under Profile.',
  wrongPin: 'That PIN did not match.',
  pinEnd: 'That PIN did not match. Goodbye.',
  chooseLoop: (names: string[]) => names.map((name, i) => `For ${name}, press ${i + 1}.`).join(' '),
  hello: (loopName: string) => `This is Loop, with the newsletter of ${loopName}.`,
  previous: 'Here is the issue before it.',
  noIssue: (loopName: string) => `${loopName} has no newsletter yet.`,
  noEarlier: 'There is no earlier issue.',
  menu: "Press 1 to hear this again, 2 for the next part, 3 for the issue before, 4 to leave your news, or 9 to stop Loop's calls.",
  end: 'That was the whole newsletter. Goodbye.',
  record: 'After the beep, tell your news. Press the pound key when you are done.',
  nothingRecorded: 'Nothing was recorded.',
  recorded: (loopName: string) => `Thank you. Your news went to ${loopName}.`,
  callsStopped: 'Loop will not call this phone again. Your texts are not changed. Goodbye.',
} as const;

const xml = (response: Response) => response.toString();

/** One sentence, then the line is put down. */
export function sayAndHangUp(words: string): string {
  const response = new VoiceResponse();
  response.say(VOICE, words);
  response.hangup();
  return xml(response);
}

/** Asks for the PIN (https://www.twilio.com/docs/voice/twiml/gather): 4 digits, then `action`. */
export function askPin(action: string, again: boolean): string {
  const response = new VoiceResponse();
  const gather = response.gather({ input: ['dtmf'], numDigits: 4, timeout: 8, action, method: 'POST' });
  gather.say(VOICE, again ? `${CALL_WORDS.wrongPin} ${CALL_WORDS.askPin}` : CALL_WORDS.askPin);
  // No digits: the same step again as a wrong try, so silence cannot keep a line open.
  response.redirect({ method: 'POST' }, action);
  return xml(response);
}

/** A member of several Loops picks one: a key per Loop, in the order named. */
export function chooseLoop(action: string, names: string[]): string {
  const response = new VoiceResponse();
  const gather = response.gather({ input: ['dtmf'], numDigits: names.length > 9 ? 2 : 1, timeout: 6, action, method: 'POST' });
  gather.say(VOICE, CALL_WORDS.chooseLoop(names));
  response.redirect({ method: 'POST' }, action);
  return xml(response);
}

/**
 * One section of an issue inside a <Gather> (so a key cuts it short), the menu after it, and,
 * when no key comes, on to `next` (the next section), or the end.
 */
export function readSection(input: {
  intro: string | null;
  section: SpokenSection;
  mediaUrl: (key: string) => string;
  menuAction: string;
  next: string | null;
}): string {
  const response = new VoiceResponse();
  const gather = response.gather({ input: ['dtmf'], numDigits: 1, timeout: 3, action: input.menuAction, method: 'POST' });
  if (input.intro) gather.say(VOICE, input.intro);
  for (const part of input.section.parts) {
    if ('say' in part) gather.say(VOICE, part.say);
    else gather.play({}, input.mediaUrl(part.play));
  }
  gather.say(VOICE, CALL_WORDS.menu);
  if (input.next) response.redirect({ method: 'POST' }, input.next);
  else {
    response.say(VOICE, CALL_WORDS.end);
    response.hangup();
  }
  return xml(response);
}

/** Words, then the menu (no issue yet, no earlier issue, news recorded). */
export function sayThenMenu(words: string, menuAction: string): string {
  const response = new VoiceResponse();
  const gather = response.gather({ input: ['dtmf'], numDigits: 1, timeout: 5, action: menuAction, method: 'POST' });
  gather.say(VOICE, `${words} ${CALL_WORDS.menu}`);
  response.say(VOICE, 'Goodbye.');
  response.hangup();
  return xml(response);
}

/** Words, then on to another step. */
export function sayThenGo(words: string, next: string): string {
  const response = new VoiceResponse();
  response.say(VOICE, words);
  response.redirect({ method: 'POST' }, next);
  return xml(response);
}

/** Leaving news (https://www.twilio.com/docs/voice/twiml/record): up to 2 minutes, a beep, # to finish. */
export function recordNews(action: string, otherwise: string): string {
  const response = new VoiceResponse();
  response.say(VOICE, CALL_WORDS.record);
  response.record({ maxLength: 120, playBeep: true, finishOnKey: '#', timeout: 6, trim: 'trim-silence', action, method: 'POST' });
  response.redirect({ method: 'POST' }, otherwise);
  return xml(response);
}
