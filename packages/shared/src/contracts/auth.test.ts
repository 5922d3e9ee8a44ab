import { describe, expect, it } from 'vitest';
import { newPasswordSchema, resetPasswordSchemaFor, signInSchema, signUpSchema } from './auth.ts';

function firstError(result: { success: boolean; error?: { issues: { message: string }[] } }): string | undefined {
  return result.error?.issues[0]?.message;
}

describe('auth schemas', () => {
  it('gives the specification messages', () => {
    expect(firstError(signInSchema.safeParse({ email: 'x', password: '123456' }))).toBe('Email inválido');
    expect(firstError(signInSchema.safeParse({ email: 'a@b.com', password: '123' }))).toBe(
      'Senha deve ter no mínimo 6 caracteres',
    );
    expect(firstError(signUpSchema.safeParse({ fullName: 'Al', email: 'a@b.com', password: '123456' }))).toBe(
      'Nome deve ter no mínimo 3 caracteres',
    );
  });

  it('normalises the e-mail', () => {
    expect(signInSchema.parse({ email: '  Ana@Example.COM ', password: '123456' }).email).toBe('ana@example.com');
  });

  it('keeps the specification minimum and its message for a new password, and refuses spaces alone', () => {
    expect(firstError(newPasswordSchema().safeParse('12345'))).toBe('Senha deve ter no mínimo 6 caracteres');
    expect(firstError(newPasswordSchema().safeParse('        '))).toBe('A senha não pode ser feita só de espaços');
    expect(newPasswordSchema().safeParse('senha-forte-123').success).toBe(true);
  });

  it('takes a raised minimum, never one below the specification', () => {
    expect(firstError(newPasswordSchema(10).safeParse('123456789'))).toBe('Senha deve ter no mínimo 10 caracteres');
    expect(firstError(newPasswordSchema(2).safeParse('12345'))).toBe('Senha deve ter no mínimo 6 caracteres');
    expect(firstError(resetPasswordSchemaFor(12).safeParse({ password: 'curta-demais', confirmPassword: 'curta-demais' }))).toBeUndefined();
  });

  it('counts characters, not UTF-16 units, and accepts long Unicode passphrases with spaces', () => {
    // Three emoji are six UTF-16 units but three characters.
    expect(firstError(newPasswordSchema().safeParse('🔒🔑🗝️'))).toBe('Senha deve ter no mínimo 6 caracteres');
    const passphrase = 'café com pão de queijo às três da tarde, ó coração — não esqueça 🌞';
    expect([...passphrase].length).toBeGreaterThanOrEqual(64);
    expect(newPasswordSchema(64).safeParse(passphrase).success).toBe(true);
  });
});
