import type { FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';
import type { ApiErrorBody } from '@loop/shared/auth';
import { toWellFormed } from '@loop/shared/text';

const STATUS = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  too_many_requests: 429,
  unavailable: 503,
} as const;
export type ErrorCode = keyof typeof STATUS;

/** An error a person can act on. Services throw it; the one error handler turns it into HTTP. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly errors?: ApiErrorBody['errors'],
  ) {
    super(message);
    this.name = 'AppError';
  }

  get status(): number {
    return STATUS[this.code];
  }
}

/**
 * Parses input with a shared zod schema; a failure is a 400 whose message names the field.
 * Strings are made well formed first (see wellFormedStrings).
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(wellFormedStrings(input ?? {}));
  if (result.success) return result.data;
  const errors = result.error.issues.map((issue) => ({
    path: issue.path.join('.'),
    message: issueMessage(issue),
  }));
  throw new AppError('bad_request', errors[0]?.message ?? 'The request is not valid', errors);
}

/**
 * Fastify's validator for every route schema (decision 0018): a route's params, body and query are
 * its shared zod schemas, checked by parseInput before the handler runs, so a bad input is the same
 * AppError 400 it always was. Fastify validates params, then body, then query, and stops at the first.
 */
export const validatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema }) =>
  (data) => {
    try {
      return { value: parseInput(schema, data) };
    } catch (error) {
      return { error: error as AppError };
    }
  };

/**
 * Replaces lone surrogates (a JSON body may carry "\udce5") in every string of a parsed body, in
 * place, with U+FFFD: PGlite fails on them (as a 500) and jsonb refuses them. Iterative, so a
 * deeply nested body cannot overflow the stack.
 */
function wellFormedStrings(input: unknown): unknown {
  if (typeof input === 'string') return toWellFormed(input);
  const stack: unknown[] = [input];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    const record = node as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const value = record[key];
      if (typeof value === 'string') record[key] = toWellFormed(value);
      else if (value !== null && typeof value === 'object') stack.push(value);
    }
  }
  return input;
}

function issueMessage(issue: z.core.$ZodIssue): string {
  const field = issue.path.join('.');
  // A body that is an array, a string or a number instead of an object.
  if (field === '' && issue.code === 'invalid_type' && issue.expected === 'object') return 'The request body must be a JSON object.';
  // zod's own messages ("Invalid input: expected string...") do not name the field; ours do.
  if (issue.message.startsWith('Invalid') || issue.message.startsWith('Unrecognized') || issue.message.startsWith('Too ')) {
    return field ? `${field}: ${issue.message}` : issue.message;
  }
  return issue.message;
}

/** PostgreSQL's unique_violation, with the constraint that was hit. */
export function uniqueViolation(error: unknown): string | null {
  let e: unknown = error;
  // drizzle wraps driver errors in a DrizzleQueryError with the original as `cause`.
  for (let depth = 0; depth < 3 && e && typeof e === 'object'; depth++) {
    const candidate = e as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (candidate.code === '23505') return typeof candidate.constraint === 'string' ? candidate.constraint : '';
    e = candidate.cause;
  }
  return null;
}

const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
// admin_shutdown, crash_shutdown, cannot_connect_now (starting up or shutting down), too_many_connections.
const SERVER_GOING = new Set(['57P01', '57P02', '57P03', '53300']);

/**
 * True when the database could not be reached or dropped the connection (PostgreSQL restarting,
 * network gone, pool timed out): the request may succeed later, so it is a 503, not a 500.
 */
export function databaseUnavailable(error: unknown): boolean {
  let e: unknown = error;
  // drizzle wraps driver errors in a DrizzleQueryError with the original as `cause`.
  for (let depth = 0; depth < 4 && e && typeof e === 'object'; depth++) {
    const candidate = e as { code?: unknown; message?: unknown; cause?: unknown };
    const code = typeof candidate.code === 'string' ? candidate.code : '';
    if (UNREACHABLE.has(code) || SERVER_GOING.has(code) || code.startsWith('08')) return true;
    const message = typeof candidate.message === 'string' ? candidate.message : '';
    // node-postgres says these without a code.
    if (/^Connection terminated|timeout exceeded when trying to connect|not queryable/.test(message)) return true;
    e = candidate.cause;
  }
  return false;
}
