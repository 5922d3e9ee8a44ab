import type { ComponentProps } from 'react';
import { Button } from './button';

type SubmitButtonProps = Omit<ComponentProps<typeof Button>, 'type' | 'disabled'> & {
  /** The form is being sent: the button is disabled and says so. */
  pending: boolean;
  /** What it reads meanwhile, such as 'Salvando...' or 'Entrando...'. */
  pendingLabel: string;
  /** The form cannot be sent yet for another reason, shown beside it (what it needs has not loaded, say). */
  disabled?: boolean;
};

/** A form's submit button, which cannot be pressed twice while the form is on its way. */
export function SubmitButton({ pending, pendingLabel, disabled = false, children, ...props }: SubmitButtonProps) {
  return (
    <Button type="submit" disabled={pending || disabled} {...props}>
      {pending ? pendingLabel : children}
    </Button>
  );
}
