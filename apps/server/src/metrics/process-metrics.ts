import { Counter, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * What this process counts as it happens, for GET /metrics (plugins/metrics.ts): one registry per
 * process, as Prometheus scrapes each process apart. Everything read from the database (texts by
 * status, the outbox, job lag) is computed at scrape time instead, by the plugin.
 */
export const processRegistry = new Registry();

// Memory, CPU, event-loop lag, open handles: prom-client's standard set, named process_* and nodejs_*.
collectDefaultMetrics({ register: processRegistry });

/** Failed sends, by Twilio's error code ("network" when Twilio gave no answer, "http_<status>" without a code). */
export const sendErrors = new Counter({
  name: 'loop_send_errors_total',
  help: 'Sends the provider refused or that could not reach it, by Twilio error code',
  labelNames: ['code'] as const,
  registers: [processRegistry],
});

/** Scheduler ticks this process ran (reminders, automatic newsletters, housekeeping). */
export const schedulerTicks = new Counter({
  name: 'loop_scheduler_ticks_total',
  help: 'Scheduler ticks run by this process, by outcome',
  labelNames: ['outcome'] as const,
  registers: [processRegistry],
});

/** Codes held back: their number's prefix or country had too many codes nobody typed in (decision 0051). */
export const codeTextsRefused = new Counter({
  name: 'loop_code_texts_refused_total',
  help: 'Codes not texted because the number prefix (CODE_TEXTS_PER_PREFIX) or country abroad had too many unused codes this hour',
  registers: [processRegistry],
});

/**
 * Newsletters the model wrote that the template writer replaced (decision 0021), by why: `no_answer`
 * (an error or no answer in time), `malformed` (not the JSON asked for, or cut off), `unknown_media`
 * (a photo it was not given) and `foreign_address` (a link, phone number or e-mail address no member
 * wrote: a prompt injection followed, decision 0053).
 */
export const newsletterModelFallbacks = new Counter({
  name: 'loop_newsletter_model_fallbacks_total',
  help: 'Newsletters the model wrote that the template writer replaced, by reason (no_answer, malformed, unknown_media, foreign_address)',
  labelNames: ['reason'] as const,
  registers: [processRegistry],
});
