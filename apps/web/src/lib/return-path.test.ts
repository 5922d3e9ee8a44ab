import { describe, expect, it } from 'vitest';
import { landingPathFor, safeReturnPath, signInPathFor } from './return-path';

describe('safeReturnPath', () => {
  it('keeps a path of this site, with its query and fragment', () => {
    expect(safeReturnPath('/admin/planos')).toBe('/admin/planos');
    expect(safeReturnPath('/admin/clinicas?q=vida&page=2#topo')).toBe('/admin/clinicas?q=vida&page=2#topo');
  });

  it('refuses anything that could leave the site', () => {
    for (const raw of [
      '//evil.example',
      '//evil.example/admin',
      'https://evil.example/admin',
      'http:/evil.example',
      '/\\evil.example',
      '/\\/evil.example',
      '\\\\evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      'javascript:alert(1)',
      'admin/planos',
      '',
      null,
      undefined,
    ]) {
      expect(safeReturnPath(raw), String(raw)).toBeNull();
    }
  });

  it('normalises dot segments instead of letting them climb out', () => {
    expect(safeReturnPath('/admin/../../admin/planos')).toBe('/admin/planos');
  });
});

describe('landingPathFor', () => {
  it('returns to the page asked for when the role may see that portal', () => {
    expect(landingPathFor('admin', '/admin/planos')).toBe('/admin/planos');
    expect(landingPathFor('clinic_staff', '/clinica/atendimentos')).toBe('/clinica/atendimentos');
    expect(landingPathFor('patient', '/paciente/cartao')).toBe('/paciente/cartao');
  });

  it("goes to the role's dashboard for another portal, an outside page or an unsafe path", () => {
    expect(landingPathFor('patient', '/admin/planos')).toBe('/paciente');
    expect(landingPathFor('admin', '/administrador')).toBe('/admin');
    expect(landingPathFor('admin', '/onboarding')).toBe('/admin');
    expect(landingPathFor('admin', '//evil.example/admin')).toBe('/admin');
    expect(landingPathFor('clinic_admin', null)).toBe('/clinica');
  });
});

describe('signInPathFor', () => {
  it('remembers a portal page, and nothing else', () => {
    expect(signInPathFor('/admin/planos')).toBe('/auth?next=%2Fadmin%2Fplanos');
    expect(signInPathFor('/admin/clinicas?page=2')).toBe('/auth?next=%2Fadmin%2Fclinicas%3Fpage%3D2');
    expect(signInPathFor('/')).toBe('/auth');
    expect(signInPathFor('//evil.example')).toBe('/auth');
  });
});
