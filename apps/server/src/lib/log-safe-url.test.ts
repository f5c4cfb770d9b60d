import { describe, expect, it } from 'vitest';
import { newToken } from './tokens';
import { logSafeUrl } from './log-safe-url';

describe('logSafeUrl', () => {
  it('hides every kind of token in a path, and query values', () => {
    const invite = newToken('invite');
    const page = newToken('newsletterUrlId');
    const photo = newToken('mediaKey');
    expect(logSafeUrl(`/join/${invite}`)).toBe('/join/:token');
    expect(logSafeUrl(`/api/invites/${invite}/join`)).toBe('/api/invites/:token/join');
    expect(logSafeUrl(`/newsletters/${page}`)).toBe('/newsletters/:token');
    expect(logSafeUrl(`/media/${photo}?w=1`)).toBe('/media/:token?w=…');
    expect(logSafeUrl('/api/loops/12/members?cursor=abc&q=ada')).toBe('/api/loops/12/members?cursor=…&q=…');
  });

  it('keeps ordinary paths as they are', () => {
    expect(logSafeUrl('/api/health')).toBe('/api/health');
    expect(logSafeUrl('/api/webhooks/twilio/messages')).toBe('/api/webhooks/twilio/messages');
    expect(logSafeUrl('/assets/index-BiQfRhPK.js')).toBe('/assets/index-BiQfRhPK.js');
  });
});
