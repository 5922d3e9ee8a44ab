import { promisify } from 'node:util';
import zlib from 'node:zlib';

export type ContentEncoding = 'br' | 'gzip';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** The encodings the client accepts with a weight above zero (`br;q=0` refuses brotli). */
function acceptedEncodings(acceptEncoding: string): Map<string, number> {
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...parameters] = part.trim().toLowerCase().split(';');
    const weight = parameters.map((parameter) => /^\s*q=([\d.]+)\s*$/.exec(parameter)?.[1]).find((value) => value !== undefined);
    if (name) accepted.set(name, weight === undefined ? 1 : Number(weight));
  }
  return accepted;
}

/** Brotli when the client takes it, else gzip, else none: what an `Accept-Encoding` header lets us send. */
export function preferredEncoding(acceptEncoding: string | undefined): ContentEncoding | null {
  const accepted = acceptedEncodings(acceptEncoding ?? '');
  const weightOf = (name: ContentEncoding) => accepted.get(name) ?? accepted.get('*') ?? 0;
  if (weightOf('br') > 0) return 'br';
  if (weightOf('gzip') > 0) return 'gzip';
  return null;
}

/**
 * Compresses a page drawn per request. Brotli at quality 5: a few milliseconds for a page, most of quality 11's
 * gain (the build's static files get 11: they are compressed once).
 */
export function compress(body: string, encoding: ContentEncoding): Promise<Buffer> {
  if (encoding === 'br') return brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } });
  return gzip(body, { level: 6 });
}
