/** The one API client: JSON over fetch with the session cookie, errors as `ApiError`. */
import type { ApiErrorBody } from '@loop/shared/auth';

export class ApiError extends Error {
  /** The HTTP status, or 0 when the request never got an answer. */
  readonly status: number;
  /** The fields a 400 names (errors.ts `errors`), to show under each field rather than in a toast. */
  readonly fields: FieldError[];

  constructor(status: number, message: string, fields: FieldError[] = []) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.fields = fields;
  }
}

export type FieldError = NonNullable<ApiErrorBody['errors']>[number];

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  /** Default "include" (the session cookie). The join call sends none (docs/product.md#api-calls). */
  credentials?: RequestCredentials;
  /** More request headers (a file upload's, which only our own pages can send). */
  headers?: Record<string, string>;
}

/** What login, register and logout answer (docs/product.md#api-calls): they never throw. */
export type AuthResult = { ok: true } | { ok: false; message: string };

export function createApiClient(baseUrl = '') {
  /** The answer's body and headers (paged lists say where the next page is in headers). */
  async function exchange<T>(
    method: Method,
    path: string,
    body?: unknown,
    options: RequestOptions = {},
  ): Promise<{ data: T; headers: Headers }> {
    const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
    const form = body instanceof FormData;
    // The server refuses an empty JSON body: only say "JSON" when there is one. A form's type
    // (multipart, with its boundary) is the browser's to write.
    if (body !== undefined && !form) headers['Content-Type'] = 'application/json';

    let response: Response;
    try {
      response = await fetch(baseUrl + path, {
        method,
        headers,
        credentials: options.credentials ?? 'include',
        body: body === undefined ? undefined : form ? body : JSON.stringify(body),
      });
    } catch (error) {
      throw new ApiError(0, errorText(error));
    }

    if (!response.ok) {
      const failure = await failureOf(response);
      throw new ApiError(response.status, failure.message, failure.fields);
    }
    const text = await response.text();
    if (text === '') return { data: undefined as T, headers: response.headers };
    try {
      return { data: JSON.parse(text) as T, headers: response.headers };
    } catch {
      throw new ApiError(response.status, 'The server sent an answer that could not be read');
    }
  }

  async function request<T>(method: Method, path: string, body?: unknown, options?: RequestOptions): Promise<T> {
    return (await exchange<T>(method, path, body, options)).data;
  }

  /** Login, register and logout: `{ ok: false, message }` instead of a thrown error. */
  async function auth(path: string, body?: unknown): Promise<AuthResult> {
    try {
      await request<unknown>('POST', path, body);
      return { ok: true };
    } catch (error) {
      return { ok: false, message: errorText(error) };
    }
  }

  return {
    request,
    auth,
    /** GET with the answer's headers: `{ data, headers }`. */
    getWithHeaders: <T>(path: string, options?: RequestOptions) => exchange<T>('GET', path, undefined, options),
    get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, undefined, options),
    post: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('POST', path, body, options),
    /** POST of files: the form goes as multipart/form-data, streamed by the browser, never as JSON. */
    postForm: <T>(path: string, form: FormData, options?: RequestOptions) => request<T>('POST', path, form, options),
    put: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', path, body, options),
    patch: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PATCH', path, body, options),
    delete: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('DELETE', path, body, options),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** The app's client: same origin as the page. */
export const api = createApiClient();

/** The message to show a person for any thrown value. */
export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : '';
}

// docs/product.md#api-calls: the body text for 4xx (our server's `{message}` when it is JSON), status and
// status text for 5xx (a 5xx body may be a proxy's HTML page, never worth showing).
async function failureOf(response: Response): Promise<{ message: string; fields: FieldError[] }> {
  const statusLine = `${response.status} ${response.statusText}`.trim();
  if (response.status >= 500) return { message: statusLine, fields: [] };
  const text = await response.text().catch(() => '');
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && 'message' in parsed && typeof parsed.message === 'string' && parsed.message) {
      return { message: parsed.message, fields: fieldErrors(parsed) };
    }
  } catch {
    // Not JSON: the raw text is the message.
  }
  return { message: text.trim() || statusLine, fields: [] };
}

/** The well-formed entries of a body's `errors` list; anything else in it is ignored. */
function fieldErrors(body: object): FieldError[] {
  if (!('errors' in body) || !Array.isArray(body.errors)) return [];
  return body.errors.filter(
    (entry): entry is FieldError =>
      entry !== null && typeof entry === 'object' && typeof entry.path === 'string' && typeof entry.message === 'string',
  );
}
