import { messages } from '@carteirinha/shared/messages';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError, apiRequest, fileNameOf, NetworkError, readDownload } from './api';
import { errorMessage } from './error-message';

function answer(status: number, body: string, headers: Record<string, string> = { 'content-type': 'application/json' }): Response {
  return new Response(body, { status, headers });
}

describe('readDownload', () => {
  it('answers the whole file, byte for byte, with the name the server gave it', async () => {
    const csv = '\uFEFFNome;CNPJ\r\nClínica;11.222.333/0001-81\r\n';
    const read = await readDownload(
      answer(200, csv, { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="relatorio-clinicas.csv"' }),
    );
    expect(read.fileName).toBe('relatorio-clinicas.csv');
    // The byte order mark included: Excel pt-BR reads the file as UTF-8 by it.
    const bytes = new Uint8Array(await read.file.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)).toBe(csv);
  });

  it.each([
    [401, 'SESSION_EXPIRED', 'Sua sessão expirou. Entre novamente.'],
    [401, 'UNAUTHENTICATED', 'Você precisa estar logado para continuar'],
    [404, 'NOT_FOUND', 'Nenhum dado disponível para exportar'],
  ])('throws the server message of a %i (%s) instead of a file', async (status, code, message) => {
    const refused = readDownload(answer(status, JSON.stringify({ error: { code, message } })));
    await expect(refused).rejects.toBeInstanceOf(ApiError);
    await expect(refused).rejects.toMatchObject({ status, code, message });
  });

  it('throws the generic error when the answer is not ours (a proxy page)', async () => {
    const refused = readDownload(answer(502, '<html>Bad gateway</html>', { 'content-type': 'text/html' }));
    await expect(refused).rejects.toMatchObject({ status: 502, code: 'INTERNAL', message: messages.errors.INTERNAL });
  });
});

describe('fileNameOf', () => {
  it('reads the quoted file name of an attachment, and nothing else', () => {
    expect(fileNameOf('attachment; filename="relatorio-usuarios.csv"')).toBe('relatorio-usuarios.csv');
    expect(fileNameOf('inline')).toBeNull();
    expect(fileNameOf(null)).toBeNull();
  });
});

describe('apiRequest on a bad connection', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  /** A fetch that never answers, as on a dead connection, but gives up when its signal aborts. */
  function hangingFetch() {
    return vi.fn(
      (_input: RequestInfo | URL, init?: RequestInit) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
        }),
    );
  }

  it('gives up on a save after its deadline, saying that nothing was saved', async () => {
    vi.stubGlobal('fetch', hangingFetch());
    const saving = apiRequest('/api/admin/clinics', z.unknown(), { method: 'POST', body: {}, timeoutMs: 20 });
    await expect(saving).rejects.toMatchObject({ name: 'NetworkError', reason: 'timeout', isWrite: true });
    expect(errorMessage(await saving.catch((error: unknown) => error))).toBe('Sem conexão. Nada foi salvo.');
  });

  it('gives up on a lookup sent as a POST (a card validation) saying it took too long, not that nothing was saved', async () => {
    vi.stubGlobal('fetch', hangingFetch());
    const looking = apiRequest('/api/clinic/card-validations', z.unknown(), { method: 'POST', body: {}, timeoutMs: 20, intent: 'read' });
    await expect(looking).rejects.toMatchObject({ name: 'NetworkError', reason: 'timeout', isWrite: false });
    expect(errorMessage(await looking.catch((error: unknown) => error))).toBe('O servidor demorou demais para responder. Tente novamente.');
  });

  it('reports a failed connection as a network error; a read says so without "Nada foi salvo"', async () => {
    vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))));
    const reading = apiRequest('/api/admin/clinics', z.unknown()).catch((error: unknown) => error);
    const failure = await reading;
    expect(failure).toBeInstanceOf(NetworkError);
    expect(errorMessage(failure)).toBe(messages.common.networkError);
  });

  it('does not even send a write while the browser is offline', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    vi.stubGlobal('navigator', { onLine: false });
    await expect(apiRequest('/api/admin/plans', z.unknown(), { method: 'POST', body: {} })).rejects.toMatchObject({ reason: 'offline' });
    expect(fetch).not.toHaveBeenCalled();
  });

  it("keeps the caller's own cancellation as it is", async () => {
    vi.stubGlobal('fetch', hangingFetch());
    const controller = new AbortController();
    const reading = apiRequest('/api/me', z.unknown(), { signal: controller.signal });
    controller.abort();
    await expect(reading).rejects.not.toBeInstanceOf(NetworkError);
  });

  it('sends the idempotency key it is given', async () => {
    const fetch = vi.fn((_input: RequestInfo | URL, _init?: RequestInit) => Promise.resolve(answer(201, '{}')));
    vi.stubGlobal('fetch', fetch);
    await apiRequest('/api/admin/clinics', z.unknown(), { method: 'POST', body: {}, idempotencyKey: 'chave-1' });
    expect(new Headers(fetch.mock.calls[0]?.[1]?.headers).get('idempotency-key')).toBe('chave-1');
  });
});

describe('apiRequest and the server\'s rule on writes (issue 12, item 14)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('labels a body as JSON, and sends an empty POST with no body and no content type', async () => {
    const fetch = vi.fn((_input: RequestInfo | URL, _init?: RequestInit) => Promise.resolve(answer(201, '{}')));
    vi.stubGlobal('fetch', fetch);
    await apiRequest('/api/admin/plans', z.unknown(), { method: 'POST', body: { name: 'Plano' } });
    await apiRequest('/api/admin/backups', z.unknown(), { method: 'POST' });
    const [withBody, empty] = fetch.mock.calls.map((call) => call[1]);
    expect(new Headers(withBody?.headers).get('content-type')).toBe('application/json');
    expect(withBody?.body).toBe('{"name":"Plano"}');
    expect(new Headers(empty?.headers).get('content-type')).toBeNull();
    expect(empty?.body).toBeUndefined();
  });
});
