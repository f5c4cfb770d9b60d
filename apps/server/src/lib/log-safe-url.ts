/**
 * A request's URL as the log may show it: capability tokens in the path (an invite code, a
 * newsletter's public id, a media key; 20+ URL-safe characters) become `:token`, and query
 * values are dropped (their names stay). Codes and tokens never reach the logs (docs/security.md).
 */
export function logSafeUrl(url: string): string {
  const [pathname = '', query] = url.split('?', 2);
  const safePath = pathname
    .split('/')
    .map((part) => (/^[A-Za-z0-9_-]{20,}$/.test(part) ? ':token' : part))
    .join('/');
  if (query === undefined) return safePath;
  const names = [...new URLSearchParams(query).keys()];
  return names.length === 0 ? safePath : `${safePath}?${names.map((name) => `${encodeURIComponent(name)}=…`).join('&')}`;
}
