import { describe, expect, it } from 'vitest';
import { signInSchema, signUpSchema } from './auth.ts';

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
});
