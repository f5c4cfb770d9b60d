import { withThe } from '../lib/article';
import { VIBES, type Vibe } from '@loop/shared/constants';

/** What the opening may mention; every value is already Markdown-escaped. The page shows the period above the text. */
export interface OpeningFacts {
  loopName: string;
  period: string;
  summary: string;
  people: string;
}

export interface Voice {
  opening: (f: OpeningFacts) => string;
  /** Introduces the group context. */
  contextLead: string;
  quiet: string;
  closing: (loopName: string) => string;
  teaser: (f: OpeningFacts) => string;
}

/**
 * One voice per vibe. A Loop may have several vibes: the first one it lists sets the tone, so the
 * same Loop always reads the same way.
 */
const VOICES: Record<Vibe, Voice> = {
  family: {
    opening: (f) =>
      `Hello, family! Here's what everyone in ${f.loopName} has been up to: ${f.summary} from ${f.people}. Pour a cup of something warm and catch up.`,
    contextLead: 'What brings us together:',
    quiet: "It's been a quiet stretch: nobody shared an update this time. We miss hearing from you!",
    closing: (name) => `That's all for now. Keep the news coming: text your updates and photos anytime. With love, ${name}.`,
    teaser: (f) => `A little taste of the next ${f.loopName} newsletter: ${f.summary} from ${f.people} so far.`,
  },
  friends: {
    opening: (f) => `Hey friends! Time to catch up on life in ${f.loopName}. ${f.people} shared ${f.summary}, and here's the lowdown.`,
    contextLead: 'Why we keep in touch:',
    quiet: 'Radio silence this time: nobody shared an update. Somebody say something!',
    closing: () => "That's the news! Text your own updates and photos anytime so the next one's even better.",
    teaser: (f) => `Psst, ${f.loopName}: ${f.summary} from ${f.people} are waiting for the next newsletter.`,
  },
  parents: {
    opening: (f) =>
      `Hello, parents! Between school runs and bedtimes, here's what ${f.loopName} has been sharing: ${f.summary} from ${f.people}.`,
    contextLead: 'What connects us:',
    quiet: 'No updates this time: we know how busy it gets. Share a moment whenever you can.',
    closing: () => 'Thanks for sharing the little moments. Text an update or a photo anytime, even a quick one.',
    teaser: (f) => `Sneak peek for busy parents: ${f.summary} from ${f.people} so far in ${f.loopName}.`,
  },
  'co-workers': {
    opening: (f) => `Hi team! Here's the latest from ${f.loopName}: ${f.summary} from ${f.people}.`,
    contextLead: 'What we share:',
    quiet: 'No updates came in this time. Share a win, a photo or a hello whenever you like.',
    closing: () => 'Thanks, everyone. Text your updates anytime and they will be in the next edition.',
    teaser: (f) => `Coming up in ${f.loopName}: ${f.summary} from ${f.people} so far.`,
  },
  solo: {
    opening: (f) => `Here's your ${f.loopName} journal for ${f.period}: ${f.summary}, all in one place.`,
    contextLead: 'Why you keep this journal:',
    quiet: 'Nothing was written down this time. Even a single line is worth keeping.',
    closing: () => 'Keep texting your moments: future you will be glad you did.',
    teaser: (f) => `So far in ${f.loopName}: ${f.summary}.`,
  },
  fun: {
    opening: (f) =>
      `Buckle up! ${withThe(f.loopName, f.loopName, { capital: true })} newsletter is here with ${f.summary} from ${f.people}.`,
    contextLead: "Why we're all here:",
    quiet: "Shh... it was very quiet this time. No updates! Let's fix that.",
    closing: () => "That's a wrap! Text in your adventures and photos anytime for the next issue.",
    teaser: (f) => `Guess what? ${f.summary} from ${f.people} are lined up for the next ${f.loopName} newsletter!`,
  },
  casual: {
    opening: (f) => `Hey all, here's what's been going on in ${f.loopName} lately: ${f.summary} from ${f.people}.`,
    contextLead: 'About us:',
    quiet: 'Pretty quiet this time: no updates came in.',
    closing: () => "That's it for now. Text your news whenever: no need to wait for a reason.",
    teaser: (f) => `Quick heads-up from ${f.loopName}: ${f.summary} from ${f.people} so far.`,
  },
  funny: {
    opening: (f) => `Breaking news from ${f.loopName}! Our roving reporters (${f.people}) filed ${f.summary}. Editors are stunned.`,
    contextLead: 'Mission statement, for anyone who forgot:',
    quiet: 'Our reporters have gone on strike: zero updates this time. Please send snacks, or news.',
    closing: () => "That's the show, folks. Remember: if you didn't text it, did it even happen?",
    teaser: (f) => `Leaked from ${withThe(f.loopName, f.loopName)} newsroom: ${f.summary} from ${f.people}. Full scandal coming soon.`,
  },
  formal: {
    opening: (f) =>
      `Dear members of ${f.loopName}, we are pleased to present this edition, covering ${f.period}. It contains ${f.summary} from ${f.people}.`,
    contextLead: 'Purpose of the group:',
    quiet: 'No updates were received during this period.',
    closing: () => 'Thank you for reading. Contributions for the next edition are welcome at any time by text message.',
    teaser: (f) => `A preview of the forthcoming ${f.loopName} newsletter: ${f.summary} from ${f.people} have been received so far.`,
  },
  deep: {
    opening: (f) => `Life is made of small moments. Here are the ones ${f.loopName} chose to share: ${f.summary} from ${f.people}.`,
    contextLead: 'What holds us together:',
    quiet: 'Sometimes silence says something too. No updates were shared this time.',
    closing: () => 'Thank you for letting each other in. Share what matters to you, whenever it comes.',
    teaser: (f) => `Moments are gathering in ${f.loopName}: ${f.summary} from ${f.people} so far.`,
  },
};

export function voiceFor(vibes: readonly string[]): Voice {
  const first = vibes.find((v): v is Vibe => (VIBES as readonly string[]).includes(v));
  return VOICES[first ?? 'casual'];
}
