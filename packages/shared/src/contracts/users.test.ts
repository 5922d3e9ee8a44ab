import { describe, expect, it } from 'vitest';
import { assignRoleFormSchema, userReferenceOf } from './users.ts';

const CLINIC = '11111111-1111-4111-8111-111111111111';
const USER = '22222222-2222-4222-8222-222222222222';

describe("'Novo Usuário': e-mail ou ID do usuário", () => {
  it('takes text with an @ for an e-mail and anything else for a user id', () => {
    expect(userReferenceOf(' Ana@Teste.dev ')).toEqual({ email: 'Ana@Teste.dev' });
    expect(userReferenceOf(USER)).toEqual({ userId: USER });
    expect(userReferenceOf('   ')).toEqual({});
  });

  it('sends the API exactly what assignRoleSchema accepts', () => {
    expect(assignRoleFormSchema.parse({ user: 'Ana@Teste.dev', role: 'patient', clinicId: CLINIC })).toEqual({ email: 'ana@teste.dev', role: 'patient', clinicId: CLINIC });
    expect(assignRoleFormSchema.parse({ user: USER, role: 'admin', clinicId: null })).toEqual({ userId: USER, role: 'admin', clinicId: null });
  });

  it('shows the specified messages on the one field', () => {
    const cases: [string, string][] = [
      ['nao-e-uuid', 'ID do usuário deve ser um UUID válido'],
      ['nao-e@email', 'Email inválido'],
      ['', 'Informe o email do usuário'],
    ];
    for (const [user, message] of cases) {
      const result = assignRoleFormSchema.safeParse({ user, role: 'admin' });
      expect(result.error?.issues.map((issue) => [issue.path, issue.message]), user).toEqual([[['user'], message]]);
    }
    const noClinic = assignRoleFormSchema.safeParse({ user: USER, role: 'patient' });
    expect(noClinic.error?.issues.map((issue) => [issue.path, issue.message])).toEqual([[['clinicId'], 'Selecione a clínica do usuário']]);
  });
});
