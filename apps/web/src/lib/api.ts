// Every data path goes through here, so zod answers in pt-BR before any schema runs.
import '@carteirinha/shared/zod-locale';
import { errorResponseSchema } from '@carteirinha/shared/errors';
import { messages } from '@carteirinha/shared/messages';
import type { z } from 'zod';

/** An API error with the server's pt-BR message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * How long a request may take, answer included, before the client gives up: on a flaky connection a save must end
 * with a clear message instead of spinning, and never land later behind the user's back.
 */
export const REQUEST_TIMEOUT_MS = 15_000;

/** Why a request got no answer from the server. */
export type NetworkFailure = 'offline' | 'failed' | 'timeout';

/** A request that got no answer: the browser was offline, the connection failed, or it took longer than allowed. */
export class NetworkError extends Error {
  constructor(
    readonly reason: NetworkFailure,
    readonly method: HttpMethod,
    private readonly intent: RequestIntent = method === 'GET' ? 'read' : 'write',
  ) {
    super(`Network ${reason} on ${method}`);
    this.name = 'NetworkError';
  }

  /** Whether the request was meant to change something (a save, a deletion), rather than to read. */
  get isWrite(): boolean {
    return this.intent === 'write';
  }
}

/**
 * What a request is for, when its method does not say it: a card validation is a POST (each attempt is recorded),
 * but to the receptionist it is a lookup, and a lookup that got no answer saved nothing to speak of.
 */
export type RequestIntent = 'read' | 'write';

type RequestOptions = {
  method?: HttpMethod;
  body?: unknown;
  signal?: AbortSignal;
  /**
   * Sent as `Idempotency-Key`: one UUID per logical submit, the same on its retry, so that a save whose answer was
   * lost is not done twice when the user tries again (see `lib/submit-keys.ts`).
   */
  idempotencyKey?: string;
  /** Overrides `REQUEST_TIMEOUT_MS` (tests). */
  timeoutMs?: number;
  /** A POST that only looks something up (see `RequestIntent`); by default GET reads and anything else writes. */
  intent?: RequestIntent;
};

/**
 * Sends a request and reads its answer under one deadline. A write is not even sent while the browser knows it is
 * offline; a request the caller cancelled (a query no longer needed) rethrows the caller's abort as it was.
 */
async function send<T>(
  path: string,
  init: Omit<RequestInit, 'signal'> & { method: HttpMethod },
  options: { signal?: AbortSignal; timeoutMs?: number; intent?: RequestIntent },
  read: (response: Response) => Promise<T>,
): Promise<T> {
  const intent = options.intent ?? (init.method === 'GET' ? 'read' : 'write');
  if (intent === 'write' && typeof navigator !== 'undefined' && !navigator.onLine) throw new NetworkError('offline', init.method, intent);
  const deadline = AbortSignal.timeout(options.timeoutMs ?? REQUEST_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  try {
    return await read(await fetch(path, { ...init, credentials: 'same-origin', signal }));
  } catch (error) {
    if (options.signal?.aborted) throw error;
    if (deadline.aborted) throw new NetworkError('timeout', init.method, intent);
    // fetch rejects with a TypeError when no answer came (DNS, refused connection, dropped network).
    if (error instanceof TypeError) throw new NetworkError('failed', init.method, intent);
    throw error;
  }
}

/** The server's pt-BR error of a refused answer, or the generic one when the body is not ours (a proxy's page). */
async function apiErrorOf(response: Response): Promise<ApiError> {
  const parsed = errorResponseSchema.safeParse(await response.json().catch(() => null));
  if (parsed.success) return new ApiError(response.status, parsed.data.error.code, parsed.data.error.message);
  return new ApiError(response.status, 'INTERNAL', messages.errors.INTERNAL);
}

/** Reads an answer: the server's pt-BR error as an ApiError, or the body parsed with the endpoint's schema. */
async function parseAnswer<T extends z.ZodType>(response: Response, schema: T): Promise<z.infer<T>> {
  if (!response.ok) throw await apiErrorOf(response);
  return schema.parse(response.status === 204 ? null : await response.json());
}

/**
 * Calls our API and parses the answer with the same zod schema the server used to produce it, so a contract drift
 * shows up as an error instead of an undefined field on screen.
 */
export async function apiRequest<T extends z.ZodType>(path: string, schema: T, options: RequestOptions = {}): Promise<z.infer<T>> {
  const headers: Record<string, string> = {};
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
  return send(
    path,
    { method: options.method ?? 'GET', headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) },
    options,
    (response) => parseAnswer(response, schema),
  );
}

type UploadOptions = {
  method?: 'POST' | 'PUT';
  signal?: AbortSignal;
};

/**
 * Sends a file (multipart/form-data) and parses the answer like `apiRequest`. No content-type header: the browser
 * writes it, with the boundary that separates the parts.
 */
export async function apiUpload<T extends z.ZodType>(path: string, schema: T, body: FormData, options: UploadOptions = {}): Promise<z.infer<T>> {
  return send(path, { method: options.method ?? 'POST', body }, options, (response) => parseAnswer(response, schema));
}

/** A file the API produced, with the name the server gave it (Content-Disposition), when it gave one. */
export type DownloadedFile = { file: Blob; fileName: string | null };

/** The file name of a `Content-Disposition: attachment; filename="…"` header. */
export function fileNameOf(contentDisposition: string | null): string | null {
  return contentDisposition ? (/filename="([^"]+)"/.exec(contentDisposition)?.[1] ?? null) : null;
}

/** Reads a download: the whole file with its name, or the server's pt-BR error thrown. */
export async function readDownload(response: Response): Promise<DownloadedFile> {
  if (!response.ok) throw await apiErrorOf(response);
  return { file: await response.blob(), fileName: fileNameOf(response.headers.get('content-disposition')) };
}

/**
 * Downloads a file from our API whole (the browser may keep a large Blob on disk rather than in the page), or throws
 * the server's pt-BR error: only a complete file counts as downloaded.
 */
export async function apiDownload(path: string): Promise<DownloadedFile> {
  return readDownload(await fetch(path, { credentials: 'same-origin' }));
}
