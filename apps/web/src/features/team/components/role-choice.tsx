import type { TeamRole } from '@carteirinha/shared/contracts/users';
import { messages } from '@carteirinha/shared/messages';
import { ROLE_LABELS } from '@carteirinha/shared/roles';
import { useId } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';

const t = messages.team;

/** 'Função': Admin de Clínica or Atendente, each with what it opens, as radio buttons (both choices in view). */
export function RoleChoice({ roles, error, register }: { roles: readonly TeamRole[]; error?: string; register: UseFormRegisterReturn }) {
  const errorId = useId();
  return (
    <fieldset className="grid gap-2" aria-describedby={error ? errorId : undefined}>
      <legend className="mb-2 text-sm font-medium">{t.roleLabel}</legend>
      {roles.map((role) => (
        <label key={role} className="flex cursor-pointer items-start gap-3 rounded-lg border p-3 has-[:checked]:border-primary has-[:checked]:bg-accent">
          <input type="radio" value={role} className="mt-1 size-4 accent-primary" {...register} />
          <span className="grid gap-0.5">
            <span className="text-sm font-medium">{ROLE_LABELS[role]}</span>
            <span className="text-sm text-muted-foreground">{t.roleHelp[role]}</span>
          </span>
        </label>
      ))}
      {error ? (
        <p id={errorId} className="text-sm font-medium text-destructive">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
