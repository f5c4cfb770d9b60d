import { authenticate, type DNSResolver } from 'mailauth';

/**
 * Whether a message really comes from the domain in its From header:
 * - `pass`: DMARC passed (RFC 7489 section 4.2, the From domain aligned with a passing SPF
 *   (RFC 7208) or DKIM (RFC 6376) identifier); or the domain publishes no DMARC policy and a
 *   passing DKIM signature or SPF check is aligned with it all the same.
 * - `fail`: DMARC failed, or nothing aligned passed, or the From header names no single domain
 *   (RFC 7489 section 6.6.1): a spoofed or unauthenticated sender, refused for good.
 * - `temperror`: a DNS lookup failed for now (RFC 7489 section 6.6.3): the sender tries again later.
 */
export type SenderCheck = { verdict: 'pass' | 'fail' | 'temperror'; reason: string; summary: string };

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

/** Checks SPF, DKIM and DMARC with mailauth (decision 0049). */
export async function authenticateSender(raw: Buffer, smtp: SmtpFacts): Promise<SenderCheck> {
  const result = await authenticate(raw, {
    ip: smtp.ip,
    helo: smtp.helo,
    sender: smtp.mailFrom,
    mta: smtp.mta,
    disableArc: true,
    disableBimi: true,
    ...(smtp.resolver ? { resolver: smtp.resolver } : {}),
  });
  const spf = result.spf ? result.spf.status.result : 'none';
  const dkimResults = result.dkim.results.map((r) => r.status.result);
  const dmarc = result.dmarc ? result.dmarc.status.result : 'none';
  const summary = `dmarc=${dmarc} spf=${spf} dkim=${dkimResults.join(',') || 'none'}`;
  const verdict = (v: SenderCheck['verdict'], reason: string): SenderCheck => ({ verdict: v, reason, summary });
  if (!result.dmarc) return verdict('fail', 'the From header does not name exactly one sender domain');
  if (dmarc === 'pass') return verdict('pass', 'DMARC pass');
  if (dmarc === 'fail') return verdict('fail', `DMARC fail for ${result.dmarc.domain}`);
  if (dmarc === 'temperror' || dmarc === 'temperr') return verdict('temperror', 'the DMARC policy could not be looked up');
  // No DMARC policy: a passing DKIM signature of the From domain, or SPF for it, still vouches for it.
  const fromDomain = (result.dmarc.status.header?.from ?? '').toLowerCase();
  const dkimAligned = result.dkim.results.some((r) => r.status.result === 'pass' && r.status.aligned);
  const spfAligned = spf === 'pass' && result.spf !== false && sameOrSubdomain(result.spf.domain.toLowerCase(), fromDomain);
  if (dkimAligned || spfAligned) return verdict('pass', dkimAligned ? 'aligned DKIM pass' : 'aligned SPF pass');
  if (spf === 'temperror' || dkimResults.includes('temperror')) return verdict('temperror', 'SPF or DKIM could not be looked up');
  return verdict('fail', `no SPF or DKIM pass for ${fromDomain || 'the From domain'}`);
}

/** The envelope's domain is the From domain or below it (bounces.example.com for example.com). */
function sameOrSubdomain(domain: string, fromDomain: string): boolean {
  return fromDomain !== '' && (domain === fromDomain || domain.endsWith(`.${fromDomain}`));
}
