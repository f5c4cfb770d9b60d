import { BlockList, isIP } from 'node:net';

/** Where a media URL may be fetched from, and with which credentials. */
export interface MediaPolicy {
  accountSid: string;
  authToken: string;
  /** TWILIO_API_BASE_URL's origin: trusted like Twilio, even on a private address (tests, proxies). */
  trustedOrigin?: string;
}

/**
 * Twilio's media hosts: the API (which answers with a redirect), its CDN, and the legacy public
 * bucket (only its media.twiliocdn.com folder).
 */
export function isTwilioMediaUrl(url: URL): boolean {
  if (url.protocol !== 'https:' || url.port !== '') return false;
  const host = url.hostname.toLowerCase();
  if (host === 'api.twilio.com' || host.endsWith('.twilio.com')) return true;
  if (host === 'twiliocdn.com' || host.endsWith('.twiliocdn.com')) return true;
  return host === 's3-external-1.amazonaws.com' && url.pathname.startsWith('/media.twiliocdn.com/');
}

export function isTrustedOrigin(url: URL, policy: MediaPolicy): boolean {
  return policy.trustedOrigin !== undefined && url.origin === new URL(policy.trustedOrigin).origin;
}

/** Why a URL may not be fetched, or null when it may. */
export function refuseMediaUrl(url: URL, policy: MediaPolicy): string | null {
  if (isTrustedOrigin(url, policy)) return null;
  if (url.protocol !== 'https:') return `only https:// media is fetched, not ${url.protocol}`;
  if (url.username || url.password) return 'media URLs with credentials are refused';
  if (!isTwilioMediaUrl(url)) return `${url.hostname} is not a Twilio media host`;
  if (isIP(url.hostname.replace(/^\[|\]$/g, '')) !== 0) return 'media URLs on IP addresses are refused';
  return null;
}

/** Basic auth goes to Twilio's API only; the CDN links it redirects to carry their own signature. */
export function sendsCredentials(url: URL, policy: MediaPolicy): boolean {
  if (isTrustedOrigin(url, policy)) return true;
  const host = url.hostname.toLowerCase();
  return url.protocol === 'https:' && (host === 'api.twilio.com' || host.endsWith('.twilio.com'));
}

// Two lists: a BlockList also matches IPv4 addresses against IPv4-mapped IPv6 rules.
const privateV4 = new BlockList();
const privateV6 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const) {
  privateV4.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 96],
  ['::ffff:0:0', 96],
  ['64:ff9b::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  privateV6.addSubnet(net, prefix, 'ipv6');
}

/** True for loopback, private, link-local (169.254.169.254), carrier-grade NAT, multicast... */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return privateV4.check(address, 'ipv4');
  // IPv4-mapped, NAT64 and the like hide an IPv4 address: Twilio's hosts never resolve to them.
  if (family === 6) return privateV6.check(address, 'ipv6');
  return true;
}
