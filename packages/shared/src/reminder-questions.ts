import { z } from 'zod';
import type { Vibe } from './constants';
import { controlCharactersMessage, hasLink, hasNoControlCharacters, hasPhoneNumber, linkMessage, phoneNumberMessage } from './text';

/**
 * The question a reminder asks (decision 0043): it rotates by the Loop's vibe, never the same twice
 * in a row for a Loop, and the owner can add their own. Every question here is GSM-7 (straight
 * quotes, no dashes or emoji): one character outside it makes an SMS cost twice as many segments.
 */
const EVERYONE = [
  'Any photo from the weekend?',
  "What's one thing that happened this week?",
  'What made you smile lately?',
  'Anything you are looking forward to?',
  'What did you eat this week that was worth it?',
  'Where did you go this week?',
  'Any small win to share?',
  'What are you reading, watching or listening to?',
  "What's the view from where you are right now?",
  'Who did you catch up with this week?',
] as const;

const BY_VIBE: Record<Vibe, readonly string[]> = {
  family: [
    'What made you laugh this week?',
    'Any news from the kids?',
    'What did you cook at home lately?',
    'Any family visit or call to tell us about?',
    'What is growing in the garden?',
    'Any first (first step, first word, first day) this week?',
    'What did the pets get up to?',
    'What are you planning for the holidays?',
    'Any recipe the family should try?',
    'What reminded you of home this week?',
    'Any old photo you found lately?',
    'What is everyone up to this weekend?',
    'Any school, work or club news?',
    'What should Grandma know about your week?',
  ],
  friends: [
    'What made you laugh this week?',
    'Any plans we should join?',
    'What is the best thing you did since we last heard?',
    'Any new place you tried?',
    'Who did you bump into lately?',
    'What song is stuck in your head?',
    'Any trip coming up?',
    'What would you tell us over a drink tonight?',
    'Any photo that needs a story?',
    'What are you obsessed with right now?',
    'Any good recommendation for the group?',
    'What is new at work or school?',
    'What did you do last Saturday night?',
    'Any news you have been saving for us?',
  ],
  parents: [
    'What did the kids say that made you laugh?',
    'Any milestone this week?',
    'How is sleep going (for them and for you)?',
    'Any tip that saved your week?',
    'What did you do together on the weekend?',
    'Any photo of the little ones?',
    'What are they into right now?',
    'Any school or daycare news?',
    'What was the hardest part of the week?',
    'What was the sweetest moment?',
    'Any meal the kids actually ate?',
    'Any outing worth repeating?',
    'What book or show are they loving?',
    'Any question you want the group to answer?',
  ],
  'co-workers': [
    'What did you ship or finish this week?',
    'Any win the team should hear about?',
    'What are you working on next?',
    'Who helped you out this week?',
    'Any lesson learned worth sharing?',
    'What made your work week easier?',
    'Any photo from the office or the road?',
    'What are you doing outside of work lately?',
    'Any book, talk or podcast to recommend?',
    'What is one thing you would like help with?',
    'Any new face the team should meet?',
    'What was the best meeting (or lunch) of the week?',
    'Any trip or event coming up?',
    'What are you proud of this week?',
  ],
  solo: [
    'What would you like to remember about this week?',
    'What did you learn lately?',
    'What made today different?',
    'Any photo of where you were this week?',
    'What are you grateful for right now?',
    'What surprised you this week?',
    'What did you make or fix?',
    'What are you looking forward to next week?',
    'What was the best hour of your week?',
    'Any thought you keep coming back to?',
    'What did you try for the first time?',
    'What would you tell yourself a year from now?',
    'Any walk, run or ride to note?',
    'What changed since the last issue?',
  ],
  fun: [
    'What made you laugh this week?',
    'Any adventure since the last issue?',
    'What was the most fun thing you did?',
    'Any game, party or outing to report?',
    'What would make the best photo of your week?',
    'Any silly moment caught on camera?',
    'What is the next fun plan?',
    'Any new hobby or trick?',
    'What did you win (or almost win)?',
    'What was the best surprise of the week?',
    'Any dance, song or show worth a mention?',
    'What did you do just for fun?',
    'Any road trip stories?',
    'What is the wildest thing you saw?',
  ],
  casual: [
    "What's up this week?",
    'Anything new with you?',
    'How was your weekend?',
    'Any plans for the next few days?',
    'What did you get up to lately?',
    'Any quick photo to share?',
    'What was the highlight of your week?',
    "What's keeping you busy?",
    'Any good meal or coffee spot lately?',
    'How are things at home?',
    'Any news, big or small?',
    'What did you do today?',
    'Anything we should know about?',
    'Seen anything good lately?',
  ],
  funny: [
    'What made you laugh this week?',
    'What is the funniest thing you overheard?',
    'Any epic fail to confess?',
    'What is the weirdest thing that happened to you?',
    'Any photo that needs a caption?',
    'Who was the funniest person you met this week?',
    'What went hilariously wrong?',
    'Any joke that worked on everyone?',
    'What did the pet, kid or neighbor do this time?',
    'What was your most awkward moment?',
    'Any autocorrect disaster?',
    'What would your week be called as a sitcom episode?',
    'Any strange sign or menu you spotted?',
    'What is the best excuse you heard lately?',
  ],
  formal: [
    'What news would you like to share this period?',
    'Any achievement or milestone to announce?',
    'What have you been working on?',
    'Any upcoming event the group should know about?',
    'Any photograph you would like included?',
    'What is a highlight of recent weeks?',
    'Any travel or visit to report?',
    'Any recommendation for the group?',
    'What are your plans for the coming weeks?',
    'Any congratulations to pass on?',
    'What would you like the group to know?',
    'Any change of address, job or routine?',
    'What has been on your mind lately?',
    'Any thanks you would like to share?',
  ],
  deep: [
    'What is something you learned about yourself lately?',
    'What are you grateful for this week?',
    'What has been hard, and what helped?',
    'Who made a difference to you lately?',
    'What are you hoping for this season?',
    'What memory came back to you this week?',
    'What would you like more of in your life?',
    'What changed your mind lately?',
    'What are you proud of that nobody saw?',
    'What gave you peace this week?',
    'What question are you living with right now?',
    'What would you like to say to someone here?',
    'What did you let go of lately?',
    'What is a moment you want to keep?',
  ],
};

/** The questions a Loop with these vibes rotates through: each vibe's own, then the ones for everyone; no repeats. */
export function vibeQuestions(vibes: readonly string[]): string[] {
  const known = vibes.filter((v): v is Vibe => v in BY_VIBE);
  return [...new Set([...(known.length ? known : (['casual'] as const)).flatMap((v) => BY_VIBE[v]), ...EVERYONE])];
}

/** Limits on the owner's own questions (docs/product.md#limits-and-timings). */
export const OWN_QUESTION_LIMITS = { count: 20, minChars: 5, maxChars: 120 } as const;

const label = 'A question';

/** One question the owner adds: it is put in texts, so the name rules apply (no links, no phone numbers). */
export const ownQuestionSchema = z
  .string({ error: 'Each question must be text' })
  .transform((v) => v.replace(/\s+/g, ' ').trim())
  .pipe(
    z
      .string()
      .min(OWN_QUESTION_LIMITS.minChars, `${label} must be at least ${OWN_QUESTION_LIMITS.minChars} characters`)
      .max(OWN_QUESTION_LIMITS.maxChars, `${label} must be at most ${OWN_QUESTION_LIMITS.maxChars} characters`)
      .refine(hasNoControlCharacters, controlCharactersMessage(label))
      .refine((v) => !hasLink(v), linkMessage(label))
      .refine((v) => !hasPhoneNumber(v), phoneNumberMessage(label)),
  );

/** PUT /api/loops/{id}/reminder-questions: the whole list, replaced. */
export const ownQuestionsSchema = z.object({
  questions: z
    .array(ownQuestionSchema, { error: 'questions must be a list of texts' })
    .max(OWN_QUESTION_LIMITS.count, `A Loop has at most ${OWN_QUESTION_LIMITS.count} questions of its own`)
    .refine((list) => new Set(list.map((q) => q.toLowerCase())).size === list.length, {
      message: 'That question is already in the list',
    }),
});
export type OwnQuestionsInput = z.input<typeof ownQuestionsSchema>;

/** GET/PUT /api/loops/{id}/reminder-questions. */
export interface ReminderQuestionsAnswer {
  /** The owner's own questions, in their order. */
  questions: string[];
  /** The questions the Loop's vibes give it, for the settings to show a few. */
  vibeQuestions: string[];
  /** The question the last reminder asked, if any: the next one will be another. */
  lastQuestion: string | null;
}

/** One member in GET /api/loops/{id}/coming-issue. */
export interface ComingIssueMember {
  memberId: number;
  firstName: string;
  lastName: string;
  /** Updates sent since the last newsletter; 0 = silent, and gets the reminders. */
  updates: number;
  lastSentAt: string | null;
}

/** GET /api/loops/{id}/coming-issue: who has and has not sent something for the next newsletter. */
export interface ComingIssueAnswer {
  /** The end of the last sent newsletter (or the Loop's creation): updates since count. */
  since: string;
  /** When the next newsletter is due, if scheduled. */
  nextNewsletterAt: string | null;
  sent: ComingIssueMember[];
  silent: ComingIssueMember[];
}
