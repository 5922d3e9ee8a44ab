import type { ComponentProps } from 'react';
import { TextField } from '@/components/ui/text-field';

type CredentialFieldProps = Omit<ComponentProps<typeof TextField>, 'label' | 'type' | 'aria-invalid'> & {
  /** The value was rejected. The message itself goes in a toast (specification §5), so only the input is marked. */
  invalid: boolean;
};

/** The e-mail of the auth forms: one label, type, autofill hint and placeholder wherever it is asked for. */
export function EmailField({ invalid, ...props }: CredentialFieldProps) {
  return <TextField label="Email" type="email" autoComplete="email" placeholder="seu@email.com" aria-invalid={invalid ? true : undefined} {...props} />;
}

type PasswordFieldProps = CredentialFieldProps & {
  label?: string;
  /** The password the account has (sign-in), or one being chosen (sign-up, reset): password managers tell them apart. */
  autoComplete: 'current-password' | 'new-password';
};

/** A password of the auth forms, 'Senha' unless told otherwise. */
export function PasswordField({ label = 'Senha', invalid, ...props }: PasswordFieldProps) {
  return <TextField label={label} type="password" aria-invalid={invalid ? true : undefined} {...props} />;
}
