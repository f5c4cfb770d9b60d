import { LIMITS } from '@loop/shared/constants';
import { clip, listNames } from './text-limits';

/**
 * Every text Loop sends on its own, in one place, so the wording stays consistent. Each fits
 * Twilio's 1,600 characters whatever the names in it (lists shortened, typed names clipped).
 */

export const replies = {
  joinHelp: () =>
    "Hi! This is Loop. This number isn't in a Loop yet. Ask the person who runs your group's Loop for an invite link, open it and enter this phone number to join.",

  shared: (firstName: string, loopNames: string[], photos: number) => {
    const what = photos > 0 ? `update and ${photos === 1 ? 'photo' : `${photos} photos`}` : 'update';
    return `Thanks ${firstName}! Your ${what} went to ${listNames(loopNames)}.`;
  },

  unknownLoop: (name: string, loopNames: string[]) =>
    `You're not in a Loop called "${clip(name, LIMITS.loopName)}", so nothing was shared. Your Loops: ${listNames(loopNames)}. ` +
    'Start your text with a Loop\'s name and a colon (like "' +
    `${loopNames[0] ?? 'Family'}: ...") or add #name, or leave the name out to share with all of them.`,

  yourLoops: (loopNames: string[]) =>
    `Your Loops: ${listNames(loopNames)}. To share with just one, start your text with its name and a colon, or add #name.`,

  help: () =>
    'Loop collects your group\'s news by text. Text anything, photos too, and it goes into your Loop\'s newsletter. ' +
    'In several Loops? Start with a Loop\'s name and a colon, or add #name. Reply LOOPS to list your Loops, STOP to stop all texts, START to get them again.',

  optedIn: () => "You're back in! Loop texts will reach you again. Reply STOP anytime to stop them.",

  videoLater: () => 'Videos and voice memos are coming to Loop later. For now only your text and photos are shared.',

  /** What was sent that Loop cannot share (contact cards, PDFs and other files), by name. */
  cannotShare: (what: string) => `Loop can't share ${what}: only your text and photos go to your Loop.`,

  location: () => "Loop can't share a location pin. Text where you are in words instead (like \"At the lake!\") and it goes to your Loop.",

  /**
   * The STOP confirmation where Twilio sends none (WhatsApp, and the Phone Simulator playing
   * Twilio on SMS): Twilio's own default wording.
   * https://help.twilio.com/articles/223134027
   */
  optedOut: () =>
    'You have successfully been unsubscribed. You will not receive any more messages from this number. Reply START to resubscribe.',

  /** Twilio's default answers to START and HELP on SMS, played by the Phone Simulator. */
  twilioOptedIn: () => 'You have successfully been re-subscribed to messages from this number. Reply HELP for help. Reply STOP to unsubscribe. Msg&Data Rates May Apply.',
  twilioHelp: () => 'Reply STOP to unsubscribe. Msg&Data Rates May Apply.',

  /** At most once a day, to a phone that opted out and texts anyway: nothing was shared. */
  rejoinHint: () => "You've stopped Loop texts, so this wasn't shared with anyone. Reply START to rejoin and share again.",

  /** `reasons`: one per photo, like "it is damaged or cut off". */
  photosSkipped: (reasons: string[]) => {
    const why = [...new Set(reasons)];
    if (reasons.length === 1) return `One photo couldn't be saved: ${why[0]}.`;
    return `${reasons.length} photos couldn't be saved: ${why.length === 1 ? `each ${why[0]?.replace(/^it /, '')}` : why.join('; ')}.`;
  },

  nothingToShare: () => 'Your text was empty, so nothing was shared. Text your news (and photos) anytime.',

  welcome: (loopName: string) =>
    `Welcome to ${loopName} on Loop! Text this number anytime with your news and photos, and they'll go into the group's newsletter. ` +
    `In several Loops? Start with "${loopName}:" to share with this one only. Reply HELP for help, STOP to opt out.`,
};
