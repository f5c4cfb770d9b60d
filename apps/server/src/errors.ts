import type { z } from 'zod';
import type { ApiErrorBody } from '@loop/shared/auth';

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

/** Parses input with a shared zod schema; a failure is a 400 whose message names the field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const errors = result.error.issues.map((issue) => ({
    path: issue.path.join('.'),
    message: issueMessage(issue),
  }));
  throw new AppError('bad_request', errors[0]?.message ?? 'The request is not valid', errors);
}

function issueMessage(issue: z.core.$ZodIssue): string {
  const field = issue.path.join('.');
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
