import { contractTermsUpdateSchema, type ContractTerms, type ContractTermsUpdate } from '@carteirinha/shared/contracts/subscriptions';
import { formatDateTime } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { ErrorState, retryPropsOf } from '@/components/ui/error-state';
import { FormField } from '@/components/ui/form-field';
import { CenteredSpinner } from '@/components/ui/spinner';
import { Button } from '@/components/ui/button';
import { Textarea } from '@/components/ui/textarea';
import { asyncHandler } from '@/lib/async-handler';
import { errorMessage } from '@/lib/error-message';
import { useClinicTerms, usePublishClinicTerms } from '../api/clinic-terms';
import { useReportDirty } from '../lib/use-dirty-parts';

const p = messages.clinicPlans;

type DirtyReport = { onDirtyChange: (dirty: boolean) => void };

function TermsForm({ terms, onDirtyChange }: { terms: ContractTerms | null } & DirtyReport) {
  const publish = usePublishClinicTerms();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isDirty, isSubmitting },
  } = useForm<ContractTermsUpdate>({ resolver: zodResolver(contractTermsUpdateSchema), defaultValues: { body: terms?.body ?? '' } });
  useReportDirty(isDirty && !isSubmitting, onDirtyChange);

  const onValid = async (values: ContractTermsUpdate) => {
    try {
      const published = await publish.mutateAsync(values);
      reset({ body: published.body });
      toast.success(formatMessage(p.termsSaved, { version: published.version }));
    } catch (error) {
      toast.error(formatMessage(p.termsSaveError, { message: errorMessage(error) }));
    }
  };

  return (
    <form noValidate onSubmit={asyncHandler(handleSubmit(onValid))} className="grid gap-4">
      <CardContent className="grid gap-2">
        <p className="text-sm text-muted-foreground" data-testid="terms-version">
          {terms ? formatMessage(p.termsVersion, { version: terms.version, date: formatDateTime(terms.createdAt) }) : p.termsNone}
        </p>
        <FormField label={p.termsBody} description={p.termsHelp} error={errors.body?.message}>
          {(field) => <Textarea {...field} rows={12} {...register('body')} />}
        </FormField>
      </CardContent>
      <CardFooter className="justify-end">
        <Button type="submit" disabled={isSubmitting || !isDirty}>
          {isSubmitting ? messages.common.saving : p.termsSave}
        </Button>
      </CardFooter>
    </form>
  );
}

/** 'Termos do contrato': the versioned terms patients accept at checkout; each save publishes a new version. */
export function TermsSection({ onDirtyChange }: DirtyReport) {
  const terms = useClinicTerms();
  return (
    <Card role="region" aria-labelledby="terms-section-title">
      <CardHeader>
        <CardTitle asChild>
          <h2 id="terms-section-title">{p.termsTitle}</h2>
        </CardTitle>
        <CardDescription>{p.termsDescription}</CardDescription>
      </CardHeader>
      {terms.isPending ? (
        <CenteredSpinner />
      ) : terms.isError ? (
        <CardContent>
          <ErrorState {...retryPropsOf(terms)} />
        </CardContent>
      ) : (
        <TermsForm key={terms.data?.id ?? 'none'} terms={terms.data} onDirtyChange={onDirtyChange} />
      )}
    </Card>
  );
}
