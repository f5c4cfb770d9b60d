import type { TextKind } from './outbox';
import { templateVariable } from './text-limits';

/**
 * One WhatsApp template as an operator submits it (Twilio Content API, `twilio/text`) and as Loop
 * fills it outside WhatsApp's 24-hour window (decision 0060). Meta refuses a body that starts or
 * ends with a variable or puts two side by side
 * (https://www.twilio.com/docs/content/twilio-text), so every {{n}} sits between fixed words.
 */
export interface WhatsappTemplate {
  /** The template's name (Content API `friendly_name`; Meta's: lowercase letters, digits, _). */
  name: string;
  /** Meta's category: each of Loop's is about something the person joined. */
  category: 'UTILITY';
  /** The body, with {{1}}, {{2}}... between fixed words. */
  body: string;
  /** Each variable, by its number: what it holds, and the sample submitted with the template. */
  variables: Record<string, { holds: string; sample: string }>;
}

/**
 * Every template Loop sends, by the kind of text it stands in for. TWILIO_WHATSAPP_TEMPLATES gives
 * each its ContentSid; a kind not here never goes as a template (codes and account notices go by
 * SMS, replies inside the window).
 */
export const WHATSAPP_TEMPLATES: Partial<Record<TextKind, WhatsappTemplate>> = {
  invitation: {
    name: 'loop_invitation',
    category: 'UTILITY',
    body: 'Loop: {{1}} invited you to {{2}} (group news, {{3}}). Msg & data rates may apply. Reply YES to join, HELP for help, STOP to opt out.',
    variables: {
      '1': { holds: 'who added them, quoted (or "someone with <name>\'s invite link")', sample: '"Alice Abbot"' },
      '2': { holds: 'the Loop, quoted', sample: '"Smith Family"' },
      '3': { holds: 'how often Loop texts', sample: 'about 3 msgs/wk' },
    },
  },
  welcome: {
    name: 'loop_welcome',
    category: 'UTILITY',
    body: "Welcome to {{1}} on Loop! Text this number anytime with your news and photos, and they'll go into the group's newsletter. Reply HELP for help, STOP to opt out.",
    variables: { '1': { holds: "the Loop's name", sample: 'Smith Family' } },
  },
  reminder: {
    name: 'loop_reminder',
    category: 'UTILITY',
    body: 'Hi {{1}}! Time for your {{2}} update on Loop: just reply with your news and photos. Reply STOP to opt out.',
    variables: {
      '1': { holds: "the member's first name", sample: 'Ada' },
      '2': { holds: 'their Loops due now', sample: 'Smith Family' },
    },
  },
  newsletter: {
    name: 'loop_newsletter',
    category: 'UTILITY',
    body: "The {{1}} newsletter is here on Loop! Catch up on everyone's news and photos: {{2}} Reply STOP to opt out.",
    variables: {
      '1': { holds: "the Loop's name", sample: 'Smith Family' },
      '2': { holds: "the newsletter's link", sample: 'https://loop.example/newsletters/abc123' },
    },
  },
  sneak_peek: {
    name: 'loop_sneak_peek',
    category: 'UTILITY',
    body: "Sneak peek from {{1}} on Loop: see what's in so far at {{2}} The full newsletter is coming soon.",
    variables: {
      '1': { holds: "the Loop's name", sample: 'Smith Family' },
      '2': { holds: "the sneak peek's link", sample: 'https://loop.example/newsletters/abc123' },
    },
  },
  group_message: {
    name: 'loop_group_message',
    category: 'UTILITY',
    body: 'Loop: a message for {{1}} from {{2}} (reply to see all of it, STOP to opt out).',
    variables: {
      '1': { holds: "the Loop's name", sample: 'Smith Family' },
      '2': { holds: 'who wrote it and the start of the message', sample: 'Maya: Picnic moved to Sunday at noon' },
    },
  },
  newsletter_review: {
    name: 'loop_newsletter_review',
    category: 'UTILITY',
    body: 'Loop: your {{1}} newsletter goes out {{2}}. Look at it, approve, edit or skip it here: {{3}} Reply STOP to opt out.',
    variables: {
      '1': { holds: "the Loop's name", sample: 'Smith Family' },
      '2': { holds: 'when it goes out', sample: 'tomorrow at 9:00' },
      '3': { holds: 'the review page', sample: 'https://loop.example/loops/12/newsletters/34' },
    },
  },
};

/** The template for a kind of text as stored (`messages.kind`), if it has one. */
function templateFor(kind: string): WhatsappTemplate | undefined {
  return (WHATSAPP_TEMPLATES as Record<string, WhatsappTemplate | undefined>)[kind];
}

/** The {{n}} a template body names, in order. */
export function placeholdersOf(body: string): string[] {
  return [...body.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1] ?? '');
}

/**
 * The ContentVariables of a queued text for its kind's template: exactly the template's variables,
 * each one short line (templateVariable). Null when the kind has no template or the text was
 * queued without every variable: then it goes by SMS rather than as a template Meta would refuse.
 */
export function fillWhatsappTemplate(kind: string, stored: Record<string, unknown> | null): Record<string, string> | null {
  const template = templateFor(kind);
  if (!template || !stored) return null;
  const filled: Record<string, string> = {};
  for (const key of Object.keys(template.variables)) {
    const value = stored[key];
    if (typeof value !== 'string') return null;
    filled[key] = templateVariable(value);
  }
  return filled;
}

/** The text a filled template shows (the Phone Simulator, tests). */
export function renderWhatsappTemplate(kind: string, variables: Record<string, string>): string | null {
  const template = templateFor(kind);
  return template ? template.body.replace(/\{\{(\w+)\}\}/g, (_, key: string) => variables[key] ?? '') : null;
}
