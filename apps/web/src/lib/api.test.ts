import { messages } from '@carteirinha/shared/messages';
import { describe, expect, it } from 'vitest';
import { ApiError, fileNameOf, readDownload } from './api';

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
