import type { DNSResolver } from 'mailauth';
import { inMailWorker, MailWorkerFailure } from './mail-worker';

/**
 * Whether a message really comes from the domain in its From header:
 * - `pass`: DMARC passed (RFC 7489 section 4.2, the From domain aligned with a passing SPF
 *   (RFC 7208) or DKIM (RFC 6376) identifier); or the domain publishes no DMARC policy and a
 *   passing DKIM signature or SPF check is aligned with it all the same.
 * - `fail`: DMARC failed, or nothing aligned passed, or the From header names no single domain
 *   (RFC 7489 section 6.6.1): a spoofed or unauthenticated sender, refused for good.
 * - `temperror`: a DNS lookup failed for now (RFC 7489 section 6.6.3): the sender tries again later.
 */
export type SenderCheck = {
  verdict: 'pass' | 'fail' | 'temperror';
  reason: string;
  summary: string;
  /** The From header's domain as DMARC read it, lower-case ('' without one). */
  fromDomain: string;
};

/**
 * How long SPF, DKIM and DMARC may take, DNS included, before the sender is told to try again
 * later: mailauth's own DNS lookups end well within it.
 */
export const AUTHENTICATE_BUDGET_MS = 30_000;

/** What the worker reports of mailauth's result (mail-thread.mjs). */
interface AuthFacts {
  spf: { result: string; domain: string } | null;
  dkim: { result: string; aligned: boolean }[];
  dmarc: { result: string; domain: string; headerFrom: string } | null;
}

export interface SmtpFacts {
  /** The connecting client's address, which SPF checks. */
  ip: string;
  /** EHLO/HELO name. */
  helo: string;
  /** The envelope sender (MAIL FROM), which SPF checks; '' for a bounce. */
  mailFrom: string;
  /** This server's name, written as the authserv-id of the results. */
  mta: string;
  /** DNS in place of the system's (tests answer from their own records; nothing real is asked). */
  resolver?: DNSResolver;
}

/**
 * Checks SPF, DKIM and DMARC with mailauth (decision 0049), in a worker thread (decision 0050): its
 * canonicalization of a 20 MiB body would otherwise hold the main thread for a quarter second.
 */
export async function authenticateSender(raw: Buffer, smtp: SmtpFacts): Promise<SenderCheck> {
  let facts: AuthFacts;
  try {
    facts = await inMailWorker<AuthFacts>('authenticate', raw, {
      budgetMs: AUTHENTICATE_BUDGET_MS,
      resolver: smtp.resolver,
      data: { ip: smtp.ip, helo: smtp.helo, sender: smtp.mailFrom, mta: smtp.mta },
    });
  } catch (error) {
    if (error instanceof MailWorkerFailure && error.reason === 'budget')
      return { verdict: 'temperror', reason: 'the checks took too long', summary: 'timeout', fromDomain: '' };
    throw error;
  }
  const spf = facts.spf ? facts.spf.result : 'none';
  const dkimResults = facts.dkim.map((r) => r.result);
  const dmarc = facts.dmarc ? facts.dmarc.result : 'none';
  const summary = `dmarc=${dmarc} spf=${spf} dkim=${dkimResults.join(',') || 'none'}`;
  const fromDomain = (facts.dmarc?.headerFrom ?? '').toLowerCase();
  const verdict = (v: SenderCheck['verdict'], reason: string): SenderCheck => ({ verdict: v, reason, summary, fromDomain });
  if (!facts.dmarc) return verdict('fail', 'the From header does not name exactly one sender domain');
  if (dmarc === 'pass') return verdict('pass', 'DMARC pass');
  if (dmarc === 'fail') return verdict('fail', `DMARC fail for ${facts.dmarc.domain}`);
  if (dmarc === 'temperror' || dmarc === 'temperr') return verdict('temperror', 'the DMARC policy could not be looked up');
  // No DMARC policy: a passing DKIM signature of the From domain, or SPF for it, still vouches for it.
  const dkimAligned = facts.dkim.some((r) => r.result === 'pass' && r.aligned);
  const spfAligned = spf === 'pass' && facts.spf !== null && sameOrSubdomain(facts.spf.domain.toLowerCase(), fromDomain);
  if (dkimAligned || spfAligned) return verdict('pass', dkimAligned ? 'aligned DKIM pass' : 'aligned SPF pass');
  if (spf === 'temperror' || dkimResults.includes('temperror')) return verdict('temperror', 'SPF or DKIM could not be looked up');
  return verdict('fail', `no SPF or DKIM pass for ${fromDomain || 'the From domain'}`);
}

/** The envelope's domain is the From domain or below it (bounces.example.com for example.com). */
function sameOrSubdomain(domain: string, fromDomain: string): boolean {
  return fromDomain !== '' && (domain === fromDomain || domain.endsWith(`.${fromDomain}`));
}
