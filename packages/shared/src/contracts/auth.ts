import { z } from 'zod';
import { FULL_NAME_MAX_LENGTH, FULL_NAME_MIN_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../constants.ts';
import { formatMessage, messages } from '../messages.ts';

const v = messages.validation;

export const emailSchema = z.string().trim().toLowerCase().pipe(z.email(v.invalidEmail));
export const passwordSchema = z.string().min(PASSWORD_MIN_LENGTH, v.passwordMin).max(PASSWORD_MAX_LENGTH, v.passwordMax);

/** Characters as a person counts them: an emoji or an accented letter is one, not two UTF-16 units (ASVS 6.2.1). */
function characterCount(value: string): number {
  return [...value].length;
}

/**
 * A password a person sets (sign-up, reset, change, invitation): at least `minLength` characters — §9's 6, or more
 * when admin Configurações raised it — at most 128, and not spaces alone. No composition rules, and long Unicode
 * passphrases with spaces are welcome (ASVS 6.2.4/6.2.9). The server adds the common-password check (ADR 007).
 * Signing in keeps `passwordSchema`: an older, shorter password must still open its account.
 */
export function newPasswordSchema(minLength: number = PASSWORD_MIN_LENGTH) {
  const minimum = Math.max(minLength, PASSWORD_MIN_LENGTH);
  return z
    .string()
    .max(PASSWORD_MAX_LENGTH, v.passwordMax)
    .refine((value) => characterCount(value) >= minimum, formatMessage(v.passwordMinOf, { min: minimum }))
    .refine((value) => value.trim() !== '', v.passwordBlank);
}

/** /auth "Entrar" form (specification §5). */
export const signInSchema = z.object({
  email: emailSchema,
  password: passwordSchema,
});
export type SignInInput = z.infer<typeof signInSchema>;

/**
 * /auth "Cadastrar" form (specification §5): the order of fields is the order of the first error shown.
 * `passwordMinLength` is the site's current minimum (`/api/tenant`).
 */
export function signUpSchemaFor(passwordMinLength: number = PASSWORD_MIN_LENGTH) {
  return z.object({
    fullName: z.string().trim().min(FULL_NAME_MIN_LENGTH, v.fullNameMin).max(FULL_NAME_MAX_LENGTH, v.fullNameMax),
    email: emailSchema,
    password: newPasswordSchema(passwordMinLength),
  });
}
export const signUpSchema = signUpSchemaFor();
export type SignUpInput = z.infer<typeof signUpSchema>;

export const forgotPasswordSchema = z.object({ email: emailSchema });
export type ForgotPasswordInput = z.infer<typeof forgotPasswordSchema>;

/** /auth/redefinir-senha and /auth/aceitar-convite (a reset or an invitation), with the site's current minimum (`/api/tenant`). */
export function resetPasswordSchemaFor(passwordMinLength: number = PASSWORD_MIN_LENGTH) {
  return z
    .object({
      password: newPasswordSchema(passwordMinLength),
      confirmPassword: z.string(),
    })
    .refine((data) => data.password === data.confirmPassword, {
      message: messages.auth.passwordsDiffer,
      path: ['confirmPassword'],
    });
}
export const resetPasswordSchema = resetPasswordSchemaFor();
export type ResetPasswordInput = z.infer<typeof resetPasswordSchema>;
