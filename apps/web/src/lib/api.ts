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

type RequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
};

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
  const response = await fetch(path, {
    method: options.method ?? 'GET',
    credentials: 'same-origin',
    headers: options.body === undefined ? undefined : { 'content-type': 'application/json' },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: options.signal,
  });
  return parseAnswer(response, schema);
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
  const response = await fetch(path, {
    method: options.method ?? 'POST',
    credentials: 'same-origin',
    body,
    signal: options.signal,
  });
  return parseAnswer(response, schema);
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
