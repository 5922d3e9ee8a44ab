import { zodResolver } from '@hookform/resolvers/zod';
import { reassignCpfRequestSchema, type ReassignCpfResponse } from '@carteirinha/shared/contracts/profiles';
import { formatCpf } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { MaskedField } from '@/components/ui/masked-field';
import { TextField } from '@/components/ui/text-field';
import { asyncHandler } from '@/lib/async-handler';
import { errorMessage } from '@/lib/error-message';
import { useReassignCpf } from '../api/reassign-cpf';

const s = messages.cpfOwner;

/**
 * 'Corrigir CPF' (issue 22): a CPF belongs to one person per clinic, and a checkout with someone else's CPF is
 * refused. When the real owner comes with a document, the clinic admin gives the CPF to that patient's account; the
 * answer stays on the card, in view, with what changed. On a patient's page (Pacientes) the form starts with that
 * patient's e-mail: the CPF is given to them.
 */
export function CpfOwnerCard({ email = '' }: { email?: string }) {
  const reassign = useReassignCpf();
  const [done, setDone] = useState<ReassignCpfResponse | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const resultRef = useRef<HTMLDivElement>(null);
  // The answer the admin waits for comes into view (on a phone it lands under the button, past the fold).
  useEffect(() => {
    if (done || failure) resultRef.current?.scrollIntoView({ block: 'nearest' });
  }, [done, failure]);
  const {
    control,
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(reassignCpfRequestSchema), defaultValues: { cpf: '', email } });

  const onValid = async (values: { cpf: string; email: string }) => {
    setDone(null);
    setFailure(null);
    try {
      setDone(await reassign.mutateAsync(values));
      reset({ cpf: '', email });
    } catch (error) {
      setFailure(errorMessage(error));
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2>{s.title}</h2>
        </CardTitle>
        <CardDescription>{s.description}</CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate aria-label={s.title} className="grid gap-4 sm:max-w-md" onSubmit={asyncHandler(handleSubmit(onValid))}>
          <MaskedField control={control} name="cpf" kind="cpf" label={s.cpfLabel} error={errors.cpf?.message} />
          <TextField label={s.emailLabel} type="email" autoComplete="off" error={errors.email?.message} {...register('email')} />
          <Button type="submit" className="justify-self-start" disabled={isSubmitting}>
            {isSubmitting ? messages.common.saving : s.submit}
          </Button>
          <div ref={resultRef} aria-live="polite" data-testid="cpf-owner-result" className="scroll-mb-24">
            {done ? (
              <p className="text-sm font-medium text-primary">
                {formatMessage(done.movedFromAnother ? s.moved : s.alreadyTheirs, { cpf: formatCpf(done.cpf), name: done.patientName })}
              </p>
            ) : null}
            {failure ? <p className="text-sm font-medium text-destructive">{failure}</p> : null}
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
