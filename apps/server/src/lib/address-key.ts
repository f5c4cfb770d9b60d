import { isIPv6 } from 'node:net';

/**
 * The client address that per-address limits count (decision 0029): an IPv4 address as it is, and
 * an IPv6 address by its /64, the block one home or phone gets (RFC 6177 and every ISP's practice),
 * so that rotating the last 64 bits counts as one client. IPv4-mapped IPv6 (::ffff:a.b.c.d) is the
 * IPv4 address.
 */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped?.[1]) return mapped[1];
  if (!isIPv6(ip)) return ip;
  const [head = '', tail = ''] = ip.split('%')[0]!.toLowerCase().split('::');
  const left = head === '' ? [] : head.split(':');
  const right = ip.includes('::') ? (tail === '' ? [] : tail.split(':')) : [];
  const groups = ip.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
