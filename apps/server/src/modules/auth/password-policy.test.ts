import { describe, expect, it } from 'vitest';
import { isCommonPassword, passwordPolicyProblem } from './password-policy.ts';

/** The test helpers' password (test/helpers.ts), which every server test signs up with. */
const TEST_PASSWORD = 'senha-forte-123';

describe('password policy', () => {
  it("knows the common passwords in any letter case, and not the project's own", () => {
    for (const common of ['123456', 'password', 'Password', ' qwerty ', 'senha123', 'iloveyou']) expect(isCommonPassword(common), common).toBe(true);
    for (const fine of [TEST_PASSWORD, 'demo123', 'uma frase longa e só minha']) expect(isCommonPassword(fine), fine).toBe(false);
  });

  it('says why a password is refused, the length first, in pt-BR', () => {
    expect(passwordPolicyProblem('12345', 6)).toBe('Senha deve ter no mínimo 6 caracteres');
    expect(passwordPolicyProblem('        ', 6)).toBe('A senha não pode ser feita só de espaços');
    expect(passwordPolicyProblem('123456', 6)).toBe('Esta senha é muito comum e fácil de adivinhar. Escolha outra.');
    expect(passwordPolicyProblem(TEST_PASSWORD, 16)).toBe('Senha deve ter no mínimo 16 caracteres');
    expect(passwordPolicyProblem(TEST_PASSWORD, 6)).toBeNull();
  });
});
