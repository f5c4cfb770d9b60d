import fc from 'fast-check';
import { ROLES, type Ref, type Role } from './world';

/**
 * Generators of bad input: what a confused client, a hostile one or a broken proxy may send.
 * Every field is sometimes right, so cases get past the first check and reach the deeper ones.
 */

/** Strings that have broken servers before: NUL, lone surrogates, markup, SQL, paths, RTL marks. */
const nastyStrings = fc.constantFrom(
  '',
  ' ',
  '\t\n\r',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\uffff\ufffe',
  '\u202eevil',
  '%00',
  '%',
  '%zz',
  '<script>alert(1)</script>',
  "'; drop table users; --",
  '../../etc/passwd',
  '${7*7}{{7*7}}',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'null',
  'undefined',
  'NaN',
  '-1',
  '1e309',
  '0x10',
  '𝕃𝕠𝕠𝕡 👨‍👩‍👧‍👦',
  'ä'.repeat(300),
);

/** Long text: past every length limit, sometimes far past. */
export const hugeString = fc.oneof(
  fc.integer({ min: 90, max: 2_100 }).map((n) => 'x'.repeat(n)),
  fc.integer({ min: 1_500, max: 30_000 }).map((n) => 'ab🙂'.repeat(Math.ceil(n / 4))),
);

export const weirdString = fc.oneof(
  { weight: 3, arbitrary: fc.string() },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 3, arbitrary: nastyStrings },
  { weight: 1, arbitrary: hugeString },
);

/** A value of any JSON type, often not the one the field wants. */
export const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.constantFrom(Number.MAX_SAFE_INTEGER + 2, -0, 1e308),
  weirdString,
  fc.array(fc.oneof(fc.string(), fc.integer(), fc.constant(null)), { maxLength: 5 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.string(), fc.integer()), { maxKeys: 4 }),
  fc.array(fc.constant('x'.repeat(100)), { minLength: 50, maxLength: 500 }),
);

/** encodeURIComponent, except that a lone surrogate is sent as the bytes Node would put on the wire. */
export function percentEncode(text: string): string {
  return [...Buffer.from(text, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9\-_.!~*'()]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

export const role: fc.Arbitrary<Role> = fc.constantFrom(...ROLES);

/** A path segment: a seeded thing by name, or something that is not one. */
export type Segment = { ref: Ref } | { raw: string } | { literal: string };

const numericJunk = fc.oneof(
  fc.integer({ min: -5, max: 1_000_000 }).map(String),
  fc.constantFrom(
    '0',
    '-1',
    '1.5',
    '1e3',
    '1e400',
    '0x1f',
    ' 7',
    '7 ',
    '+7',
    '00007',
    'Infinity',
    'NaN',
    '9007199254740993',
    '99999999999999999999999',
    '٣',
  ),
);

/** A numeric id segment: mostly seeded ids, otherwise numbers that exist nowhere and garbage. */
export function idSegment(...refs: Ref[]): fc.Arbitrary<Segment> {
  return fc.oneof(
    { weight: 10, arbitrary: fc.constantFrom(...refs).map((ref) => ({ ref })) },
    { weight: 2, arbitrary: numericJunk.map((raw) => ({ raw })) },
    { weight: 1, arbitrary: weirdString.filter((s) => s.length > 0 && s.length < 3000).map((raw) => ({ raw })) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('%', '%zz', '%00', '..', '%2e%2e', '%2F', '%C0%AF', ';', 'a%20b').map((literal) => ({ literal })),
    },
  );
}

/** A token segment (invite code, urlId, media key): seeded ones, plausible-looking fakes and garbage. */
export function tokenSegment(...refs: Ref[]): fc.Arbitrary<Segment> {
  return fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...refs).map((ref) => ({ ref })) },
    { weight: 2, arbitrary: fc.stringMatching(/^[A-Za-z0-9_-]{16,64}$/).map((raw) => ({ raw })) },
    { weight: 2, arbitrary: weirdString.filter((s) => s.length > 0 && s.length < 3000).map((raw) => ({ raw })) },
    { weight: 1, arbitrary: fc.constantFrom('%', '%zz', '%00', '..', '%2e%2e', '%2F', 'index.html').map((literal) => ({ literal })) },
  );
}

export interface RawBody {
  payload?: string;
  contentType?: string;
}

const JSON_TYPE = 'application/json';
const contentType = fc.oneof(
  { weight: 30, arbitrary: fc.constant(JSON_TYPE) },
  {
    weight: 3,
    arbitrary: fc.constantFrom<string | undefined>(
      undefined,
      '',
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'application/json; charset=utf-16',
      'application/jsonx',
      'application/json-patch+json',
      'text/plain',
      'text/plain; charset=utf-8',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=----x',
      'application/xml',
      'application/octet-stream',
      '*/*',
      ';;;',
    ),
  },
);

/**
 * A JSON object with these fields. Half the time every field is valid (so cases reach the
 * service and the database); otherwise each field is sometimes wrong, huge or missing, and
 * unknown fields ride along.
 */
export function objectWith(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Record<string, unknown>> {
  const names = Object.keys(fields);
  const mutated = fc
    .tuple(
      fc.tuple(
        ...names.map((name) =>
          fc.oneof(
            { weight: 4, arbitrary: fields[name]!.map((v) => ({ v })) },
            { weight: 2, arbitrary: wrongValue.map((v) => ({ v })) },
            { weight: 1, arbitrary: fc.constant(null) },
          ),
        ),
      ),
      fc.dictionary(
        fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('isPrivileged', 'id', 'creatorId', 'role', 'paused', 'userId')),
        wrongValue,
        { maxKeys: 3 },
      ),
    )
    .map(([boxes, extra]) => {
      const object: Record<string, unknown> = { ...extra };
      boxes.forEach((box, i) => {
        const name = names[i]!;
        if (box) object[name] = box.v;
        else delete object[name];
      });
      return object;
    });
  return fc.oneof(
    { weight: 3, arbitrary: fc.record(fields) },
    { weight: 1, arbitrary: fc.record(fields, { requiredKeys: [] }) },
    { weight: 4, arbitrary: mutated },
  );
}

/**
 * A request body: usually a JSON object of the route's fields (see objectWith), otherwise any JSON
 * value, broken JSON, an empty body, deep nesting, prototype poisoning or more than the 1 MiB limit;
 * under a JSON or a wrong Content-Type.
 */
export function body(fields: Record<string, fc.Arbitrary<unknown>> = {}): fc.Arbitrary<RawBody> {
  const payload = fc.oneof(
    { weight: 24, arbitrary: objectWith(fields).map((o) => JSON.stringify(o)) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
    {
      weight: 1,
      arbitrary: objectWith(fields).chain((o) => {
        const text = JSON.stringify(o);
        return fc.nat(text.length).map((n) => text.slice(0, n));
      }),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom<string | undefined>(
        undefined,
        '',
        'null',
        '{}',
        '[]',
        '""',
        '{"__proto__":{"isPrivileged":true}}',
        '{"constructor":{"prototype":{"x":1}}}',
      ),
    },
    { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 50_000 }).map((n) => '['.repeat(n) + ']'.repeat(n)) },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 1024 * 1024 + 1, max: 1024 * 1024 + 50_000 }).map((n) => JSON.stringify({ name: 'x'.repeat(n) })),
    },
  );
  return fc.record({ payload, contentType }).map((b) => {
    const out: RawBody = {};
    if (b.payload !== undefined) out.payload = b.payload;
    if (b.contentType !== undefined) out.contentType = b.contentType;
    return out;
  });
}

/** A query string: the route's parameters, sometimes repeated, garbage, or wrongly encoded. */
export function query(params: Record<string, fc.Arbitrary<string>> = {}): fc.Arbitrary<string> {
  const known = Object.entries(params).map(([name, valid]) =>
    fc
      .option(fc.oneof({ weight: 4, arbitrary: valid }, { weight: 1, arbitrary: weirdString.filter((s) => s.length < 5000) }), {
        nil: undefined,
      })
      .map((v) => (v === undefined ? [] : [`${name}=${percentEncode(v)}`])),
  );
  const extra = fc.array(
    fc.oneof(
      fc.tuple(fc.string({ maxLength: 10 }), fc.string({ maxLength: 20 })).map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`),
      fc.constantFrom('a[b]=c', '%=%', 'x=%zz', '=', '&&', 'page=1&page=2', 'sort[]=name', 'search=%00', '__proto__[x]=1'),
    ),
    { maxLength: 3 },
  );
  return fc.tuple(fc.tuple(...known), extra).map(([parts, more]) => {
    const all = [...parts.flat(), ...more];
    return all.length ? `?${all.join('&')}` : '';
  });
}
