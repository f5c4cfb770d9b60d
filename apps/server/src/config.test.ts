import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

const base = { SESSION_SECRET: 'x'.repeat(32), DATA_DIR: '/tmp/loop-config-test' };

describe('loadConfig', () => {
  it('has working defaults', () => {
    const config = loadConfig(base);
    expect(config.PORT).toBe(3000);
    expect(config.PUBLIC_URL).toBe('http://localhost:3000');
    expect(config.secureCookies).toBe(false);
    expect(config.messagingProvider).toBe('simulator');
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('lists every bad variable in one message', () => {
    let error: unknown;
    try {
      loadConfig({
        ...base,
        PORT: 'abc',
        PUBLIC_URL: 'ftp://example.com',
        DATABASE_URL: 'mysql://root:hunter2@localhost/x',
        TWILIO_ACCOUNT_SID: 'AC123',
        SEND_RATE_PER_SECOND: '-1',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toBe(
      [
        'Loop cannot start: the configuration is invalid.',
        '  - PORT: PORT must be a number (got "abc")',
        '  - PUBLIC_URL: PUBLIC_URL must be an http:// or https:// URL (got "ftp://example.com")',
        '  - DATABASE_URL: DATABASE_URL must start with postgres:// or postgresql:// (got "***")',
        '  - SEND_RATE_PER_SECOND: SEND_RATE_PER_SECOND must be 0 (no pacing) or more (got "-1")',
        '  - TWILIO_AUTH_TOKEN: TWILIO_AUTH_TOKEN is required when Twilio is configured',
        '  - TWILIO_FROM_NUMBER: TWILIO_FROM_NUMBER or TWILIO_MESSAGING_SERVICE_SID is required when Twilio is configured',
      ].join('\n'),
    );
  });

  it('uses secure cookies under https', () => {
    const config = loadConfig({ ...base, PUBLIC_URL: 'https://loop.example.com/' });
    expect(config.PUBLIC_URL).toBe('https://loop.example.com');
    expect(config.secureCookies).toBe(true);
  });
});

describe('TRUST_PROXY (decision 0029: which hops of X-Forwarded-For to trust)', () => {
  it('refuses true at start, and says what to write instead', () => {
    expect(() => loadConfig({ ...base, TRUST_PROXY: 'true' })).toThrow(
      /TRUST_PROXY=true trusts every hop of X-Forwarded-For.*TRUST_PROXY=1 behind one load balancer.*TRUST_PROXY=10\.0\.0\.0\/8/,
    );
  });

  it.each([
    ['0.0.0.0/1,128.0.0.0/1', 'IPv4'],
    ['0.0.0.0/0', 'IPv4'],
    ['10.0.0.0/8, 0.0.0.0/2, 64.0.0.0/2, 128.0.0.0/1', 'IPv4'],
    ['::ffff:0:0/96', 'IPv4'],
    ['::ffff:0.0.0.0/97,128.0.0.0/1', 'IPv4'],
    ['::/0', 'IPv6'],
    ['::/1, 8000::/1', 'IPv6'],
    // ::/1 holds ::ffff:0:0/96, and proxy-addr matches IPv4 clients against it as IPv4-mapped.
    ['::/1', 'IPv4'],
  ])('refuses %j at start, which covers every %s address as true does', (value, family) => {
    expect(() => loadConfig({ ...base, TRUST_PROXY: value })).toThrow(
      new RegExp(`TRUST_PROXY=.* covers every ${family} address, which trusts every hop.*TRUST_PROXY=1 behind one load balancer`),
    );
  });

  it.each(['0.0.0.0/1', '0.0.0.0/1,128.0.0.0/2,192.0.0.0/3,224.0.0.0/4', '8000::/1', '::ffff:0:0/97', '10.0.0.0/8,fd00::/8,loopback'])(
    'takes %j, which leaves some addresses untrusted',
    (value) => {
      expect(loadConfig({ ...base, TRUST_PROXY: value }).TRUST_PROXY).toEqual(value.split(',').map((e) => e.trim()));
    },
  );

  it('reads a hop count, or addresses and CIDR ranges, as Fastify takes them; false by default', () => {
    expect(loadConfig(base).TRUST_PROXY).toBe(false);
    expect(loadConfig({ ...base, TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ ...base, TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(loadConfig({ ...base, TRUST_PROXY: ' 10.0.0.0/8, 192.168.1.7 ,fd00::/8,loopback' }).TRUST_PROXY).toEqual([
      '10.0.0.0/8',
      '192.168.1.7',
      'fd00::/8',
      'loopback',
    ]);
    expect(() => loadConfig({ ...base, TRUST_PROXY: '10.0.0.0/33' })).toThrow(
      /"10\.0\.0\.0\/33" is not a hop count, an address or a CIDR range/,
    );
    expect(() => loadConfig({ ...base, TRUST_PROXY: 'yes' })).toThrow(/"yes" is not a hop count/);
  });
});

describe('texting costs money (decision 0030)', () => {
  const twilio = { TWILIO_ACCOUNT_SID: 'AC123', TWILIO_AUTH_TOKEN: 'token' };

  it('texts the country of TWILIO_FROM_NUMBER by default, every country with the simulator, or SMS_COUNTRIES', () => {
    expect(loadConfig(base).smsCountries).toBe('all');
    expect(loadConfig({ ...base, ...twilio, TWILIO_FROM_NUMBER: '+14155550000' }).smsCountries).toEqual(['US']);
    expect(loadConfig({ ...base, ...twilio, TWILIO_FROM_NUMBER: '+447911123456' }).smsCountries).toEqual(['GG']);
    expect(loadConfig({ ...base, ...twilio, TWILIO_FROM_NUMBER: '+14155550000', SMS_COUNTRIES: 'us, ca' }).smsCountries).toEqual([
      'US',
      'CA',
    ]);
    expect(loadConfig({ ...base, SMS_COUNTRIES: 'all' }).smsCountries).toBe('all');
    expect(() => loadConfig({ ...base, SMS_COUNTRIES: 'US,XX,Germany' })).toThrow(/"XX" is not a two-letter country code.*\n.*"GERMANY"/);
    // A Messaging Service has no number to take the country from: the start says what to set.
    expect(() => loadConfig({ ...base, ...twilio, TWILIO_MESSAGING_SERVICE_SID: 'MG123' })).toThrow(
      /SMS_COUNTRIES: set the countries Loop may text/,
    );
  });

  it('caps code texts at 100 an hour, and asks for a proof-of-work except in tests', () => {
    expect(loadConfig(base).CODE_TEXTS_PER_HOUR).toBe(100);
    expect(loadConfig(base).proofOfWork).toBe(true);
    expect(loadConfig({ ...base, NODE_ENV: 'production' }).proofOfWork).toBe(true);
    expect(loadConfig({ ...base, NODE_ENV: 'test' }).proofOfWork).toBe(false);
    expect(loadConfig({ ...base, NODE_ENV: 'production', SIGNUP_PROOF_OF_WORK: 'off' }).proofOfWork).toBe(false);
    expect(loadConfig({ ...base, NODE_ENV: 'test', SIGNUP_PROOF_OF_WORK: 'on' }).proofOfWork).toBe(true);
    expect(() => loadConfig({ ...base, SIGNUP_PROOF_OF_WORK: 'yes' })).toThrow(/SIGNUP_PROOF_OF_WORK must be "on" or "off"/);
  });
});

describe('staff settings (staff are granted, never claimed)', () => {
  const twilio = { TWILIO_ACCOUNT_SID: 'AC123', TWILIO_AUTH_TOKEN: 'token', TWILIO_FROM_NUMBER: '+14155550000' };

  it('refuses ADMIN_EMAILS and says what replaced it', () => {
    expect(() => loadConfig({ ...base, ADMIN_EMAILS: 'boss@corp.example' })).toThrow(
      /ADMIN_EMAILS is no longer read.*npm run admin -- grant EMAIL/,
    );
  });

  it('reads ADMIN_PHONES as E.164 numbers, with Twilio only', () => {
    const config = loadConfig({ ...base, ...twilio, ADMIN_PHONES: ' +1 (415) 555-0101 ,+44 20 7946 0958,, ' });
    expect(config.staffPhones).toEqual(['+14155550101', '+442079460958']);
    expect(() => loadConfig({ ...base, ADMIN_PHONES: '+14155550101' })).toThrow(/ADMIN_PHONES needs Twilio/);
    expect(() => loadConfig({ ...base, ...twilio, ADMIN_PHONES: 'boss@corp.example' })).toThrow(
      /"boss@corp.example" is not an international phone number/,
    );
  });
});

describe('messaging settings', () => {
  it('reads WhatsApp templates per kind, and retry settings', () => {
    const config = loadConfig({
      ...base,
      TWILIO_WHATSAPP_TEMPLATES: ` Reminder = HX${'0'.repeat(32)} ,newsletter=HX${'f'.repeat(32)}`,
      SEND_MAX_ATTEMPTS: '3',
      SEND_RETRY_BASE_SECONDS: '0',
    });
    expect(config.TWILIO_WHATSAPP_TEMPLATES).toEqual({ reminder: `HX${'0'.repeat(32)}`, newsletter: `HX${'f'.repeat(32)}` });
    expect(config.SEND_MAX_ATTEMPTS).toBe(3);
    expect(config.SEND_RETRY_BASE_SECONDS).toBe(0);
    expect(loadConfig(base).TWILIO_WHATSAPP_TEMPLATES).toEqual({});
  });

  it('reads a group message template under its former kind name, bulk', () => {
    expect(loadConfig({ ...base, TWILIO_WHATSAPP_TEMPLATES: `bulk=HX${'3'.repeat(32)}` }).TWILIO_WHATSAPP_TEMPLATES).toEqual({
      group_message: `HX${'3'.repeat(32)}`,
    });
  });

  it('names a bad template entry', () => {
    expect(() => loadConfig({ ...base, TWILIO_WHATSAPP_TEMPLATES: 'reminder=HX12' })).toThrow(
      'TWILIO_WHATSAPP_TEMPLATES: "reminder=HX12" is not kind=HX followed by 32 hex digits (got "reminder=HX12")',
    );
  });

  it('reads QUIET_HOURS as a window, off, or names a bad one (47 CFR 64.1200(c)(1): 8 am to 9 pm by default)', () => {
    expect(loadConfig(base).QUIET_HOURS).toEqual({ start: '21:00', end: '08:00' });
    expect(loadConfig({ ...base, QUIET_HOURS: '22:00-07:30' }).QUIET_HOURS).toEqual({ start: '22:00', end: '07:30' });
    expect(loadConfig({ ...base, QUIET_HOURS: 'off' }).QUIET_HOURS).toBeNull();
    expect(() => loadConfig({ ...base, QUIET_HOURS: '9pm-8am' })).toThrow(
      'QUIET_HOURS: QUIET_HOURS must be two times like 21:00-08:00, or off',
    );
  });
});

// CTIA Messaging Principles and Best Practices 5.1.3: the answer to HELP gives a support contact.
describe('SUPPORT_CONTACT', () => {
  const twilio = { TWILIO_ACCOUNT_SID: 'AC123', TWILIO_AUTH_TOKEN: 'token', TWILIO_FROM_NUMBER: '+14155550000' };

  it('is required with Twilio in production, and says what to write', () => {
    expect(() => loadConfig({ ...base, ...twilio, NODE_ENV: 'production' })).toThrow(
      /SUPPORT_CONTACT: SUPPORT_CONTACT is required with Twilio in production: the e-mail or web address where members get help/,
    );
    expect(loadConfig({ ...base, ...twilio, NODE_ENV: 'production', SUPPORT_CONTACT: 'help@example.com' }).supportContact).toBe(
      'help@example.com',
    );
  });

  it('is an e-mail or web address; elsewhere it defaults to PUBLIC_URL', () => {
    expect(() => loadConfig({ ...base, SUPPORT_CONTACT: 'call me' })).toThrow(/SUPPORT_CONTACT must be an e-mail address/);
    expect(loadConfig({ ...base, SUPPORT_CONTACT: 'https://example.com/help' }).supportContact).toBe('https://example.com/help');
    expect(loadConfig({ ...base, ...twilio, PUBLIC_URL: 'https://loop.example.com' }).supportContact).toBe('https://loop.example.com');
  });
});
