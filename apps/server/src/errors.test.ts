import { describe, expect, it } from 'vitest';
import { databaseUnavailable } from './errors';

/** What node-postgres and drizzle throw when PostgreSQL goes away, as seen in the fault tests. */
const wrapped = (cause: unknown) => Object.assign(new Error('Failed query: select 1'), { cause });

describe('databaseUnavailable', () => {
  it.each([
    ['a refused connection', wrapped(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))],
    ['a reset connection', wrapped(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }))],
    ['a connection dropped mid-query', wrapped(new Error('Connection terminated unexpectedly'))],
    ['the pool waiting too long', new Error('timeout exceeded when trying to connect')],
    [
      'an administrator shutdown',
      wrapped(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })),
    ],
    ['a server starting up', Object.assign(new Error('the database system is starting up'), { code: '57P03' })],
    ['a connection exception', wrapped(Object.assign(new Error('connection failure'), { code: '08006' }))],
  ])('is true for %s', (_name, error) => {
    expect(databaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', wrapped(Object.assign(new Error('duplicate key'), { code: '23505' }))],
    ['a syntax error', wrapped(Object.assign(new Error('syntax error'), { code: '42601' }))],
    ['a plain bug', new TypeError('x is undefined')],
    ['nothing', undefined],
  ])('is false for %s', (_name, error) => {
    expect(databaseUnavailable(error)).toBe(false);
  });
});
