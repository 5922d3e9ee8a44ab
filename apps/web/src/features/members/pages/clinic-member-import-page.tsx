import { MEMBER_IMPORT_MAX_BYTES, MEMBER_IMPORT_MAX_ROWS, type MemberImportPayer, type MemberImportPreview, type MemberImportRequest } from '@carteirinha/shared/contracts/member-imports';
import { formatCpf } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { saoPauloDay } from '@carteirinha/shared/sao-paulo-time';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { ErrorState, retryPropsOf } from '@/components/ui/error-state';
import { ErrorText } from '@/components/ui/error-text';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { maskValue } from '@/components/ui/masked-field';
import { NativeSelect } from '@/components/ui/native-select';
import { PageHeader } from '@/components/ui/page-header';
import { SubmitButton } from '@/components/ui/submit-button';
import { TextField } from '@/components/ui/text-field';
import { useClinicPlans } from '@/features/subscription-plans/api/list-clinic-plans';
import { asyncHandler } from '@/lib/async-handler';
import { errorMessage } from '@/lib/error-message';
import { toast } from '@/lib/toasts';
import { useConfirmMemberImport, useMemberImportPreview } from '../api/member-imports';
import { fileToBase64 } from '../lib/file-base64';

const t = messages.memberImport;

type Form = { planId: string; payer: MemberImportPayer; companyName: string; cnpj: string; validUntil: string };
const EMPTY: Form = { planId: '', payer: 'person', companyName: '', cnpj: '', validUntil: '' };

/** What the preview was made of: the confirmation sends exactly this again, with the lines the preview found good. */
type Previewed = { request: MemberImportRequest; result: MemberImportPreview };

function PreviewRows({ result }: { result: MemberImportPreview }) {
  return (
    <ul className="grid gap-2" aria-label={t.previewTitle}>
      {result.rows.map((row) => {
        const ok = row.errors.length === 0;
        return (
          <li key={row.line} className={`rounded-md border p-3 text-sm ${ok ? 'border-border' : 'border-destructive/60 bg-destructive/5'}`}>
            <div className="flex flex-wrap items-baseline justify-between gap-x-3">
              <span className="font-medium">
                {formatMessage(t.line, { line: row.line })}: {row.fullName || '-'}
              </span>
              <span className="tabular-nums text-muted-foreground">{row.cpf.length === 11 ? formatCpf(row.cpf) : row.cpf || '-'}</span>
            </div>
            <div className="break-all text-muted-foreground">{row.email || '-'}</div>
            {ok ? (
              <p className="mt-1 text-emerald-800 dark:text-emerald-300">{t.rowOk}</p>
            ) : (
              <ul className="mt-1 list-disc pl-5 text-destructive">
                {row.errors.map((error) => (
                  <li key={error}>{error}</li>
                ))}
              </ul>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/**
 * 'Importar CSV' (issue 26): a company enrolls its employees. The clinic admin picks the plan and who pays, sends the
 * file for a preview — each line's problem, nothing written — and then 'Confirmar importação' writes every good line
 * at once. Changing anything in the form discards the preview, so what is confirmed is what was previewed.
 */
export function ClinicMemberImportPage() {
  const navigate = useNavigate();
  const plans = useClinicPlans();
  const onSale = (plans.data ?? []).filter((plan) => plan.isActive && !plan.awaitingReview);
  // Until the plans come, or when none is on sale, there is no plan to put the patients on: nothing can be sent.
  const hasPlanToOffer = plans.isSuccess && onSale.length > 0;
  const [form, setForm] = useState<Form>(EMPTY);
  const [file, setFile] = useState<File | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [previewed, setPreviewed] = useState<Previewed | null>(null);
  const preview = useMemberImportPreview();
  const confirm = useConfirmMemberImport();
  const answerRef = useRef<HTMLHeadingElement>(null);

  const planId = form.planId || onSale[0]?.id || '';
  const change = (changes: Partial<Form>) => {
    setForm((current) => ({ ...current, ...changes }));
    setPreviewed(null);
  };

  // The answer the admin waits for is brought into view (a phone shows the form's bottom otherwise).
  useEffect(() => {
    if (previewed) answerRef.current?.focus();
  }, [previewed]);

  async function onPreview(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    if (!file) return setFormError(t.fileRequired);
    if (file.size > MEMBER_IMPORT_MAX_BYTES) return setFormError(formatMessage(t.fileTooLarge, { rows: MEMBER_IMPORT_MAX_ROWS }));
    if (form.payer === 'company' && !form.validUntil) return setFormError(t.validUntilRequired);
    const request: MemberImportRequest = {
      planId,
      payer: form.payer,
      companyName: form.companyName,
      cnpj: form.cnpj,
      validUntil: form.payer === 'company' ? form.validUntil : null,
      fileBase64: await fileToBase64(file),
    };
    try {
      setPreviewed({ request, result: await preview.mutateAsync(request) });
    } catch (error) {
      setFormError(errorMessage(error));
    }
  }

  async function onConfirm() {
    if (!previewed) return;
    const expectedLines = previewed.result.rows.filter((row) => row.errors.length === 0).map((row) => row.line);
    try {
      const result = await confirm.mutateAsync({ ...previewed.request, expectedLines });
      toast.success(formatMessage(t.imported, { count: result.imported }));
      await navigate('/clinica/pacientes');
    } catch (error) {
      setFormError(errorMessage(error));
      setPreviewed(null);
    }
  }

  return (
    <>
      <PageHeader
        title={t.title}
        description={t.description}
        actions={
          <Button asChild variant="outline">
            <Link to="/clinica/pacientes">{messages.members.back}</Link>
          </Button>
        }
      />
      <Card>
        <CardContent>
          <form className="grid gap-4 md:grid-cols-2" onSubmit={asyncHandler(onPreview)} noValidate>
            <FormField label={t.plan} id="import-plan">
              {(control) => (
                <NativeSelect {...control} value={planId} disabled={!hasPlanToOffer} onChange={(event) => change({ planId: event.target.value })}>
                  {plans.isPending ? <option value="">{messages.common.loading}</option> : null}
                  {onSale.map((plan) => (
                    <option key={plan.id} value={plan.id}>
                      {plan.name}
                    </option>
                  ))}
                </NativeSelect>
              )}
            </FormField>
            {plans.isError ? (
              <ErrorState variant="inline" {...retryPropsOf(plans)} className="items-start text-left md:col-span-2" />
            ) : plans.isSuccess && onSale.length === 0 ? (
              <p className="text-sm text-destructive md:col-span-2" role="alert">
                {t.noPlanOnSale} <Link to="/clinica/planos" className="font-medium underline underline-offset-4">{t.goToPlans}</Link>
              </p>
            ) : null}
            <fieldset className="grid gap-2">
              <legend className="mb-1 text-sm font-medium">{t.payer}</legend>
              {(['person', 'company'] as const).map((payer) => (
                <label key={payer} className="flex items-start gap-2 text-sm">
                  <input type="radio" name="payer" value={payer} checked={form.payer === payer} onChange={() => change({ payer })} className="mt-1" />
                  <span>{payer === 'person' ? t.payerPerson : t.payerCompany}</span>
                </label>
              ))}
            </fieldset>
            <TextField label={t.companyName} id="import-company" value={form.companyName} onChange={(event) => change({ companyName: event.target.value })} autoComplete="organization" />
            <TextField
              label={t.cnpj}
              id="import-cnpj"
              value={form.cnpj}
              onChange={(event) => change({ cnpj: maskValue('cnpj', event.target.value) })}
              placeholder="00.000.000/0000-00"
              autoComplete="off"
            />
            {form.payer === 'company' ? (
              <TextField label={t.validUntil} id="import-valid-until" type="date" min={saoPauloDay(new Date())} value={form.validUntil} onChange={(event) => change({ validUntil: event.target.value })} />
            ) : null}
            <FormField label={t.file} id="import-file">
              {(control) => (
                <Input
                  {...control}
                  type="file"
                  accept=".csv,text/csv"
                  onChange={(event) => {
                    setFile(event.target.files?.[0] ?? null);
                    setPreviewed(null);
                  }}
                />
              )}
            </FormField>
            <div className="flex flex-wrap items-center gap-3 md:col-span-2">
              <SubmitButton pending={preview.isPending || plans.isPending} pendingLabel={messages.common.loading} disabled={!hasPlanToOffer}>
                {t.preview}
              </SubmitButton>
              {formError ? <ErrorText>{formError}</ErrorText> : null}
            </div>
          </form>
        </CardContent>
      </Card>
      {previewed ? (
        <Card>
          <CardHeader>
            <CardTitle asChild>
              <h2 ref={answerRef} tabIndex={-1}>
                {t.previewTitle}
              </h2>
            </CardTitle>
          </CardHeader>
          <CardContent className="grid gap-4">
            <p className="font-medium" role="status">
              {formatMessage(t.previewSummary, { total: previewed.result.total, valid: previewed.result.valid, invalid: previewed.result.invalid })}
            </p>
            <p className="text-sm text-muted-foreground">
              {t.previewNothingWritten} ({previewed.result.encoding === 'utf-8' ? 'UTF-8' : 'Windows-1252'}, “{previewed.result.delimiter}”)
            </p>
            <div className="flex flex-wrap gap-3">
              <Button type="button" onClick={asyncHandler(onConfirm)} disabled={previewed.result.valid === 0 || confirm.isPending}>
                {confirm.isPending ? messages.common.saving : t.confirm}
              </Button>
              <Button type="button" variant="outline" onClick={() => setPreviewed(null)} disabled={confirm.isPending}>
                {messages.common.cancel}
              </Button>
            </div>
            {previewed.result.valid === 0 ? <ErrorText>{t.nothingToImport}</ErrorText> : null}
            <PreviewRows result={previewed.result} />
          </CardContent>
        </Card>
      ) : null}
    </>
  );
}
