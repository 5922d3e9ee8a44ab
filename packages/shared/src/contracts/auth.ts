import { z } from 'zod';
import { FULL_NAME_MIN_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../constants.ts';
import { messages } from '../messages.ts';

const v = messages.validation;

export const emailSchema = z.string().trim().toLowerCase().pipe(z.email(v.invalidEmail));
export const passwordSchema = z.string().min(PASSWORD_MIN_LENGTH, v.passwordMin).max(PASSWORD_MAX_LENGTH, v.passwordMax);

/** /auth "Entrar" form (specification §5). */
export const signInSchema = z.object({
  email: emailSchema,
  password: passwordSchema,
});
export type SignInInput = z.infer<typeof signInSchema>;

/** /auth "Cadastrar" form (specification §5): the order of fields is the order of the first error shown. */
export const signUpSchema = z.object({
  fullName: z.string().trim().min(FULL_NAME_MIN_LENGTH, v.fullNameMin),
  email: emailSchema,
  password: passwordSchema,
});
export type SignUpInput = z.infer<typeof signUpSchema>;

export const forgotPasswordSchema = z.object({ email: emailSchema });
export type ForgotPasswordInput = z.infer<typeof forgotPasswordSchema>;

export const resetPasswordSchema = z
  .object({
    password: passwordSchema,
    confirmPassword: z.string(),
  })
  .refine((data) => data.password === data.confirmPassword, {
    message: messages.auth.passwordsDiffer,
    path: ['confirmPassword'],
  });
export type ResetPasswordInput = z.infer<typeof resetPasswordSchema>;
