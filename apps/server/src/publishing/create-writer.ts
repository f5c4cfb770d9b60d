import type { FastifyBaseLogger } from 'fastify';
import { openAiEndpoint, type Config } from '../config';
import { createOpenAiWriter } from './openai-writer';
import { templateWriter } from './template-writer';
import type { NewsletterWriter } from './writer';

/** The model writer when OPENAI_API_KEY or OPENAI_BASE_URL is set (a local server needs no key), else the template. */
export function createNewsletterWriter(config: Config, log: Pick<FastifyBaseLogger, 'warn'>): NewsletterWriter {
  const endpoint = openAiEndpoint(config);
  if (!endpoint) return templateWriter;
  return createOpenAiWriter({ ...endpoint, model: config.OPENAI_MODEL, timeoutMs: config.OPENAI_TIMEOUT_MS, log });
}
