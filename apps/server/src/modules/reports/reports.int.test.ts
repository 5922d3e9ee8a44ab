import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printReportSchema } from '@carteirinha/shared/contracts/reports';
import { clinics } from '../../db/schema.ts';
import { createClinic, createSignedInUser, createTestApp, type TestApp } from '../../../test/helpers.ts';

let t: TestApp;
let cookie: string;

beforeAll(async () => {
  t = await createTestApp();
  cookie = (await createSignedInUser(t, 'admin')).cookie;
  const a = await createClinic(t.db, 'Clínica; Antiga');
  await t.db.update(clinics).set({ createdAt: new Date('2025-03-10T15:00:00Z'), city: 'Belém', state: 'PA' }).where(eq(clinics.id, a.clinicId));
  const b = await createClinic(t.db, '=Clínica Nova');
  await t.db.update(clinics).set({ createdAt: new Date('2026-02-01T02:00:00Z') }).where(eq(clinics.id, b.clinicId));
});
afterAll(async () => {
  await t.close();
});

function get(url: string) {
  return t.app.inject({ method: 'GET', url, headers: { cookie } });
}

describe('admin reports', () => {
  it('filters the summary by creation date (São Paulo days, both ends included)', async () => {
    expect((await get('/api/admin/reports/summary')).json().clinics).toBe(2);
    expect((await get('/api/admin/reports/summary?from=2025-03-10&to=2025-03-10')).json().clinics).toBe(1);
    // 02:00 UTC on 1 February is still 31 January in São Paulo.
    expect((await get('/api/admin/reports/summary?from=2026-01-31&to=2026-01-31')).json().clinics).toBe(1);
    expect((await get('/api/admin/reports/summary?from=2030-01-01&to=2030-12-31')).json()).toEqual({ clinics: 0, users: 0, plans: 0, activePlans: 0 });
  });

  it('validates the period with the specified messages', async () => {
    const one = await get('/api/admin/reports/summary?from=2026-01-01');
    expect(one.statusCode).toBe(400);
    expect(one.json().error.message).toBe('Por favor, selecione ambas as datas');
    const reversed = await get('/api/admin/reports/summary?from=2026-02-01&to=2026-01-01');
    expect(reversed.json().error.message).toBe('Data inicial não pode ser maior que a data final');
  });

  it('exports the clinics CSV for Excel pt-BR: BOM, ";" separator, dd/MM/yyyy dates, quoting and formula guard', async () => {
    const response = await get('/api/admin/reports/clinicas.csv');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="relatorio-clinicas.csv"');
    expect(response.body.startsWith('\uFEFF')).toBe(true);
    const lines = response.body.slice(1).trimEnd().split('\r\n');
    expect(lines[0]).toBe('Nome;CNPJ;Status;Cidade;Estado;Criado');
    expect(lines[1]).toMatch(/^"Clínica; Antiga";\d{2}\.\d{3}\.\d{3}\/\d{4}-\d{2};Ativa;Belém;PA;10\/03\/2025$/);
    expect(lines[2]).toMatch(/^'=Clínica Nova;.*;31\/01\/2026$/);
  });

  it('exports users and plans, and says when there is nothing to export', async () => {
    const users = await get('/api/admin/reports/usuarios.csv');
    expect(users.body.slice(1).split('\r\n')[0]).toBe('Email;Função;Criado em');
    expect(users.body).toContain(';Super Admin;');
    const empty = await get('/api/admin/reports/planos.csv');
    expect(empty.statusCode).toBe(404);
    expect(empty.json().error.message).toBe('Nenhum dado disponível para exportar');
  });

  it('gives the print view the title and a shorter set of columns than the CSV', async () => {
    const clinicsPrint = printReportSchema.parse((await get('/api/admin/reports/clinicas?from=2025-01-01&to=2025-12-31')).json());
    expect(clinicsPrint).toMatchObject({ title: 'Relatório de Clínicas', total: 1, columns: ['Nome', 'CNPJ', 'Status', 'Criado'] });
    expect(clinicsPrint.rows).toEqual([['Clínica; Antiga', expect.stringMatching(/^\d{2}\.\d{3}\.\d{3}\/\d{4}-\d{2}$/), 'Ativa', '10/03/2025']]);
    const usersPrint = printReportSchema.parse((await get('/api/admin/reports/usuarios')).json());
    expect(usersPrint).toMatchObject({ title: 'Relatório de Usuários', columns: ['Email', 'Função'] });
    expect(usersPrint.rows.every((row) => row.length === 2)).toBe(true);
    const plansPrint = printReportSchema.parse((await get('/api/admin/reports/planos')).json());
    expect(plansPrint).toMatchObject({ title: 'Relatório de Planos', columns: ['Nome', 'Preço', 'Ativo'], rows: [], total: 0 });
  });

  it('writes "Sem função" for an account without a role, in the CSV and in the print view', async () => {
    const { email } = await createSignedInUser(t, null);
    const csv = await get('/api/admin/reports/usuarios.csv');
    const row = csv.body.split('\r\n').find((line) => line.startsWith(`${email};`));
    expect(row?.split(';')[1]).toBe('Sem função');
    const print = printReportSchema.parse((await get('/api/admin/reports/usuarios')).json());
    expect(print.rows.find((cells) => cells[0] === email)?.[1]).toBe('Sem função');
  });

  it('streams in keyset batches: a file larger than one batch arrives whole and in order', async () => {
    const { seedManyClinics } = await import('../../../test/generators.ts');
    await seedManyClinics(t.db, 2_500);
    const response = await get('/api/admin/reports/clinicas.csv');
    const lines = response.body.trimEnd().split('\r\n');
    expect(lines).toHaveLength(1 + 2 + 2_500);
    expect(new Set(lines).size).toBe(lines.length);
  });

  it('streams the users in keyset batches too, each account once, with or without a role', async () => {
    const { seedManyUsers } = await import('../../../test/generators.ts');
    const { clinicId } = await createClinic(t.db, 'Clínica dos Pacientes');
    await seedManyUsers(t.db, 2_500, { clinicId });
    const total = (await get('/api/admin/reports/summary')).json().users;
    const lines = (await get('/api/admin/reports/usuarios.csv')).body.trimEnd().split('\r\n');
    expect(lines).toHaveLength(1 + total);
    expect(new Set(lines.map((line) => line.split(';')[0])).size).toBe(lines.length);
    expect(lines.filter((line) => line.includes(';Paciente;'))).toHaveLength(1_875);
  });
});
