import { andList } from '@loop/shared/text';
import { templateVariable } from './text-limits';
import { flattened, QUOTE_LIMITS, quoted, quotedLoop, quotedLoopNames as listNames, quotedPerson } from './quote';

/**
 * The texts Loop sends on its own in answer to a member's texts, and the invitation, welcome and
 * joined texts. Reminders, newsletter links and phone codes have their own files (the list is in
 * docs/product.md#texts-a-member-gets). Anything a person typed (Loop names, names, words from a
 * text) goes in quoted and length-limited (quote.ts). The invitation, the YES confirmation and HELP
 * carry what carriers review (CTIA Messaging Principles and Best Practices 5.1.2.1 and 5.1.3;
 * decision 0038): the brand, what the texts are and how often, "Msg & data rates may apply", and
 * how to get help and to stop.
 */

/** The most invitations one "which Loop?" question offers (a reply is one digit). */
export const WHICH_LOOP_CHOICES = 9;

const loopName = quotedLoop;
const firstNameOf = quotedPerson;

/** CTIA 5.1.3: the disclosure a consent request carries. */
const RATES = 'Msg & data rates may apply.';

export const replies = {
  /** "PIN 4821" (decision 0067): to the phone itself, so its holder hears of a PIN they did not set. */
  phonePinSet: () =>
    'Your Loop phone PIN is set. When you call this number, enter it to hear your newsletter. Did not text it? Text PIN and 4 new digits.',
  joinHelp: () =>
    "Hi! This is Loop. This number isn't in a Loop yet. Ask the person who runs your group's Loop for an invite link, open it and enter this phone number to join.",

  shared: (firstName: string, loopNames: string[], photos: number, clips: readonly { kind: 'audio' | 'video' }[] = []) => {
    const count = (n: number, one: string) => (n === 0 ? [] : [n === 1 ? one : `${n} ${one}s`]);
    const voice = clips.filter((c) => c.kind === 'audio').length;
    const parts = ['update', ...count(photos, 'photo'), ...count(voice, 'voice memo'), ...count(clips.length - voice, 'video')];
    const what = andList(parts);
    return `Thanks ${firstNameOf(firstName)}! Your ${what} went to ${listNames(loopNames)}.`;
  },

  /** A reaction kept under the newsletter it answers (decision 0056), not an update. */
  reacted: (firstName: string, loopNames: string[]) =>
    `Thanks ${firstNameOf(firstName)}! Your reaction is under the latest newsletter of ${listNames(loopNames)}. Text news anytime for the next one.`,

  unknownLoop: (name: string, loopNames: string[]) =>
    `You're not in a Loop called ${quoted(name, QUOTE_LIMITS.typed)}, so nothing was shared. Your Loops: ${listNames(loopNames)}. ` +
    'Start your text with a Loop\'s name and a colon (like "' +
    `${flattened(loopNames[0] ?? 'Family', QUOTE_LIMITS.loopName).replace(/"/g, "'")}: ...") or add #name, or leave the name out to share with all of them.`,

  /** Two of the sender's Loops have the same name: Loop never guesses which one was meant. */
  sameName: (loops: { name: string; ownerName: string }[]) =>
    `More than one of your Loops is called ${loopName(loops[0]?.name ?? '')} (${loops
      .map((l) => `one run by ${quotedPerson(l.ownerName)}`)
      .join(
        ', ',
      )}), so nothing was shared. Send it without the name to share with all your Loops, or ask one of them to rename their Loop.`,

  yourLoops: (loopNames: string[]) =>
    `Your Loops: ${listNames(loopNames)}. To share with just one, start your text with its name and a colon, or add #name.`,

  /**
   * The answer to HELP (CTIA 5.1.3: the brand, a support contact, how to stop), one segment with
   * a short contact: `supportContact` is SUPPORT_CONTACT, an e-mail address or a web address. How
   * to share with one Loop comes with the answer to LOOPS; START comes with the STOP confirmation,
   * which left room for DELETE (decision 0045).
   */
  help: (supportContact: string) =>
    `Loop: group news by text. Reply LOOPS to list your Loops, STOP to opt out, DELETE to erase your texts. Help: ${flattened(supportContact, 100)}. ${RATES}`,

  /**
   * DELETE from a member without an account (decision 0045): the code that confirms it. Nothing
   * is deleted until the code comes back, from this phone, in time.
   */
  erasureAsk: (code: string) =>
    `Loop: to delete your name, number and everything you sent to Loop, for good, reply DELETE ${code} within 10 minutes. To keep it all, ignore this.`,

  /** The last text Loop sends a member who erased themselves by text. */
  erased: () =>
    "Loop: done. Everything you sent, your name and your number are deleted, and Loop won't text you again. Reply START to rejoin.",

  /** DELETE from a phone with a Loop account: deleting it asks for the password, on the website. */
  erasureOnWebsite: () =>
    'Loop: this number has a Loop account. To delete it and everything you sent, sign in on the website and open Profile, then Delete my account.',

  /** DELETE from a phone Loop does not know. */
  erasureNothing: () => 'Loop has nothing from this number to delete.',

  /** To an account's old phone once the account moved to another (decision 0052): names nobody, links nothing. */
  phoneNumberChanged: (lastDigits: string) =>
    `Loop: the phone number of your Loop account was just changed to a number ending in ${lastDigits}, so Loop no longer texts this phone for it. If you did not do this, use "Forgot password?" on the Loop website with your email now.`,

  /**
   * START's confirmation, Loop's own (WhatsApp; SMS when Loop answers START): CTIA 5.1.2.1 asks an
   * opt-in confirmation for the brand, the frequency, "Msg & data rates may apply", HELP and STOP.
   */
  optedIn: () => "Loop: you're back in. Msg frequency varies. Msg & data rates may apply. Reply HELP for help, STOP to opt out.",

  /** This server has no ffmpeg (decision 0023): said plainly, with what does get through. */
  clipsUnavailable: () => "This Loop can't take videos or voice memos yet, so only your text and photos were shared.",

  /** Voice memos and videos that could not be kept, each reason saying what to send instead (media/clip.ts). */
  clipsSkipped: (reasons: string[]) => {
    const why = [...new Set(reasons)];
    if (reasons.length === 1) return `Your voice memo or video couldn't be saved: ${why[0]}.`;
    return `${reasons.length} voice memos or videos couldn't be saved: ${why.join('; ')}.`;
  },

  /** What was sent that Loop cannot share (contact cards, PDFs and other files), by name. */
  cannotShare: (what: string) => `Loop can't share ${what}: only your text and photos go to your Loop.`,

  location: () => 'Loop can\'t share a location pin. Text where you are in words instead (like "At the lake!") and it goes to your Loop.',

  /**
   * Loop's own STOP confirmation where Twilio sends none (WhatsApp, and opt-outs in words Twilio
   * does not take): it names Loop, since nothing else on WhatsApp says who stopped (CTIA 5.1.3).
   */
  loopOptedOut: () => "Loop: you're unsubscribed and will get no more Loop messages. Reply START to rejoin.",

  /**
   * Twilio's default STOP confirmation, played by the Phone Simulator on SMS.
   * https://help.twilio.com/articles/223134027
   */
  optedOut: () =>
    'You have successfully been unsubscribed. You will not receive any more messages from this number. Reply START to resubscribe.',

  /** Twilio's default answer to START on SMS, played by the Phone Simulator. */
  twilioOptedIn: () =>
    'You have successfully been re-subscribed to messages from this number. Reply HELP for help. Reply STOP to unsubscribe. Msg&Data Rates May Apply.',

  /**
   * A text that might ask to stop but might be news (decision 0055): it was not shared, and this
   * says both ways out. At most once a day to a phone.
   */
  mightStop: () => "Loop didn't share that text. Reply STOP to stop all texts from Loop, or send your news again.",

  /** At most once a day, to a phone that opted out and texts anyway: nothing was shared. */
  rejoinHint: () => "You've stopped Loop texts, so this wasn't shared with anyone. Reply START to rejoin and share again.",

  /** `reasons`: one per photo, like "it is damaged or cut off". */
  photosSkipped: (reasons: string[]) => {
    const why = [...new Set(reasons)];
    if (reasons.length === 1) return `One photo couldn't be saved: ${why[0]}.`;
    return `${reasons.length} photos couldn't be saved: ${why.length === 1 ? `each ${why[0]?.replace(/^it /, '')}` : why.join('; ')}.`;
  },

  nothingToShare: () => 'Your text was empty, so nothing was shared. Text your news (and photos) anytime.',

  /** `inSeveral`: the member is in another Loop too, so says how to share with this one only. */
  welcome: (name: string, inSeveral: boolean) =>
    `Welcome to ${loopName(name)} on Loop! Text this number anytime with your news and photos, and they'll go into the group's newsletter. ` +
    (inSeveral
      ? `You're in several Loops: start with "${flattened(name, QUOTE_LIMITS.loopName).replace(/"/g, "'")}:" to share with this one only. `
      : '') +
    'Reply HELP for help, STOP to opt out.',

  /**
   * The one text a person gets when someone else adds their phone to a Loop: a consent request as
   * CTIA 5.1.2.1 and 5.1.3 ask for one. It names the brand, who added them (their account's name,
   * never a typed one) to which Loop, what comes and how often (`frequency`, textFrequency),
   * the rates, and YES, HELP and STOP. Within 160 GSM-7 characters with names of usual length;
   * nothing more comes without YES.
   */
  invitation: (input: { loopName: string; adderName: string; viaLink: boolean; frequency: string }) =>
    `Loop: ${
      input.viaLink
        ? `someone used ${quotedPerson(input.adderName)}'s invite link to add you to`
        : `${quotedPerson(input.adderName)} invited you to`
    } ${loopName(input.loopName)} (group news, ${input.frequency}). ${RATES} Reply YES to join, HELP for help, STOP to opt out.`,

  /**
   * The invitation's WhatsApp template variables (whatsapp-templates.ts, decision 0060): who added
   * them, the Loop and how often, each quoted as in the text; the template's fixed words are the rest.
   */
  invitationTemplateVariables: (input: { loopName: string; adderName: string; viaLink: boolean; frequency: string }) => ({
    '1': templateVariable(input.viaLink ? `someone with ${quotedPerson(input.adderName)}'s invite link` : quotedPerson(input.adderName)),
    '2': templateVariable(loopName(input.loopName)),
    '3': templateVariable(input.frequency),
  }),

  /** YES confirmed these memberships (CTIA 5.1.3: what they joined, how often, how to stop). */
  joined: (names: string[], frequency: string) =>
    `Loop: you're in ${listNames(names)} (${frequency}). Text your news and photos to this number anytime. ` +
    'Reply HELP for help, STOP to opt out.',

  /** YES with nothing to confirm (no invitation, an expired one, or one already answered). */
  nothingToJoin: () =>
    "There's no open Loop invitation for this number, so nothing changed. Invitations last 7 days: ask the person who runs the Loop to invite you again.",

  /** YES naming a Loop the phone has no open invitation for. */
  notInvitedTo: (name: string, pending: string[]) =>
    `You have no open invitation to a Loop called ${quoted(name, QUOTE_LIMITS.typed)}, so nothing changed.` +
    (pending.length > 0 ? ` Your invitations: ${listNames(pending)}. Reply YES to choose one.` : ''),

  /**
   * The "which Loop?" question: a YES confirms one invitation, so with several open (or one whose
   * invitation never went) Loop asks, naming who invited them to each (decision 0033). At most
   * WHICH_LOOP_CHOICES are offered; `again` when a reply matched none of them.
   */
  whichLoop: (choices: readonly Choice[], again = false) =>
    `${again ? "That isn't one of the choices, so nothing changed. " : ''}Which Loop do you want to join? ` +
    `Reply ${describeChoices(choices.slice(0, WHICH_LOOP_CHOICES))
      .map((c, i) => `${i + 1} for ${c}`)
      .join(', ')}.`,

  /**
   * A staff group message says whose it is: it starts with the Loop's name (`"Smith Family":
   * Picnic moved to Sunday`). Outside WhatsApp's window its template gets {{1}} the Loop's name
   * and {{2}} the start of the message (one line each; the whole text follows a reply).
   */
  /**
   * A group message: whose Loop and who wrote it come first, both quoted, so a message cannot pass
   * for another Loop's (decision 0042). The template gets the Loop's name and "Name: message".
   */
  groupMessage: (name: string, senderFirstName: string, message: string) => ({
    body: `${loopName(name)} from ${firstNameOf(senderFirstName)}: ${message}`,
    templateVariables: { '1': templateVariable(name), '2': templateVariable(`${senderFirstName}: ${message}`) },
  }),

  /**
   * A text from someone invited and not yet in: what they were invited to, by whom, and that their
   * text waits for their YES (it then goes to the Loop they join).
   */
  heldForYes: (invitations: readonly { name: string; inviterName: string }[]) => {
    const [only] = invitations;
    const what =
      invitations.length === 1 && only
        ? `${quotedPerson(only.inviterName)} invited you to ${loopName(only.name)}`
        : `you're invited to ${andList(invitations.slice(0, WHICH_LOOP_CHOICES).map((i) => `${loopName(i.name)} (from ${quotedPerson(i.inviterName)})`))}`;
    return `Loop: ${what}. Reply YES to join, and your text will go to the Loop you join. STOP to opt out.`;
  },

  /** START while invitations wait for a YES. */
  invitationsWaiting: (names: string[]) => `You have an open invitation to ${listNames(names)}: reply YES to join.`,
};

/** One invitation in the "which Loop?" question. */
interface Choice {
  loopId: number;
  name: string;
  inviterName: string;
  /** The last digits of the inviter's proven phone; null when not proven. */
  inviterPhoneEnd: string | null;
}

/**
 * Each choice as the question names it, never two alike (decision 0053): the Loop and who invited
 * them, with the last digits of the inviter's proven phone, which an impostor who copied the names
 * cannot copy; should two still read the same (an unproven phone, or digits that match), each of
 * those also names its Loop's number.
 */
function describeChoices(choices: readonly Choice[]): string[] {
  const base = choices.map(
    (c) => `${loopName(c.name)} (from ${quotedPerson(c.inviterName)}${c.inviterPhoneEnd ? `, phone ending ${c.inviterPhoneEnd}` : ''}`,
  );
  return base.map((text, i) =>
    base.indexOf(text) !== base.lastIndexOf(text) ? `${text}, Loop #${choices[i]?.loopId ?? ''})` : `${text})`,
  );
}
