import { parseHexColor, readableTextColor } from '@carteirinha/shared/color';
import { DEFAULT_PRIMARY_COLOR } from '@carteirinha/shared/constants';
import { brandingUpdateSchema, type ClinicBranding } from '@carteirinha/shared/contracts/tenant';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { ImageIcon, LockIcon, UploadIcon } from 'lucide-react';
import { useId, useRef, type ChangeEvent } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { TextField } from '@/components/ui/text-field';
import { asyncHandler } from '@/lib/async-handler';
import { errorMessage } from '@/lib/error-message';
import { toast } from '@/lib/toasts';
import { useUpdateBranding, type BrandingUpdate } from '../api/update-branding';
import { useUploadLogo } from '../api/upload-logo';
import { imageFileProblem } from '@/lib/image-file';

function brandingFormValues(branding: ClinicBranding): BrandingUpdate {
  return { displayName: branding.name, primaryColor: branding.primaryColor ?? DEFAULT_PRIMARY_COLOR };
}

type SectionProps = { branding: ClinicBranding; canManage: boolean };

function LogoSection({ branding, canManage }: SectionProps) {
  const fileInput = useRef<HTMLInputElement>(null);
  const helpId = useId();
  const upload = useUploadLogo();

  const onFileChosen = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Cleared so that choosing the same file again (after fixing it) still fires a change.
    event.target.value = '';
    if (!file) return;
    const problem = imageFileProblem(file);
    if (problem) {
      toast.error(messages.tenancy.logoUploadErrorTitle, { description: problem });
      return;
    }
    upload.mutate(file, {
      onSuccess: () => toast.success(messages.tenancy.logoSaved),
      onError: (error) => toast.error(messages.tenancy.logoUploadErrorTitle, { description: errorMessage(error) }),
    });
  };

  return (
    <div className="grid gap-2">
      <p className="text-sm leading-none font-medium">Logo</p>
      <div className="flex flex-wrap items-center gap-4">
        {branding.logoUrl ? (
          <img
            src={branding.logoUrl}
            alt={formatMessage(messages.tenancy.logoAlt, { name: branding.name })}
            data-testid="logo-preview"
            className="size-20 rounded-lg border bg-background object-contain"
          />
        ) : (
          <div className="flex size-20 flex-col items-center justify-center gap-1 rounded-lg border border-dashed text-xs text-muted-foreground">
            <ImageIcon aria-hidden="true" className="size-5" />
            {messages.tenancy.noLogo}
          </div>
        )}
        {canManage ? (
          <div className="grid gap-2">
            <input
              ref={fileInput}
              type="file"
              accept="image/*"
              hidden
              tabIndex={-1}
              aria-label={messages.tenancy.uploadLogo}
              data-testid="logo-file-input"
              onChange={onFileChosen}
            />
            <Button
              type="button"
              variant="outline"
              className="justify-self-start"
              disabled={upload.isPending}
              aria-describedby={helpId}
              onClick={() => fileInput.current?.click()}
            >
              <UploadIcon aria-hidden="true" />
              {upload.isPending ? messages.common.sending : messages.tenancy.uploadLogo}
            </Button>
            <p id={helpId} className="text-sm text-muted-foreground">
              {messages.tenancy.logoHelp}
            </p>
          </div>
        ) : null}
      </div>
    </div>
  );
}

/** A button in the chosen colour, with the text colour the site will use on it. */
function ColorPreview({ color }: { color: string }) {
  if (!parseHexColor(color)) return null;
  return (
    <div className="flex items-center gap-3 text-sm text-muted-foreground">
      {messages.tenancy.colorPreview}
      <span
        data-testid="color-preview"
        className="inline-flex h-9 items-center rounded-md px-4 text-sm font-medium shadow-xs"
        style={{ backgroundColor: color, color: readableTextColor(color) }}
      >
        {messages.tenancy.subscribeNow}
      </span>
    </div>
  );
}

function BrandingForm({ branding, canManage }: SectionProps) {
  const hexInputId = useId();
  const hexErrorId = useId();
  const updateBranding = useUpdateBranding();
  const {
    register,
    handleSubmit,
    setValue,
    reset,
    control,
    formState: { errors, isSubmitting, isSubmitted, isDirty },
  } = useForm({ resolver: zodResolver(brandingUpdateSchema), defaultValues: brandingFormValues(branding) });
  const color = useWatch({ control, name: 'primaryColor' });
  // The colour picker only takes #rrggbb: while the text field holds half a code, it keeps the saved colour.
  const pickerColor = parseHexColor(color) ? color.toLowerCase() : (branding.primaryColor ?? DEFAULT_PRIMARY_COLOR);

  const onValid = async (values: BrandingUpdate) => {
    try {
      const saved = await updateBranding.mutateAsync(values);
      reset(brandingFormValues(saved));
      toast.success(messages.tenancy.brandingSaved);
    } catch (error) {
      toast.error(messages.tenancy.brandingSaveErrorTitle, { description: errorMessage(error) });
    }
  };

  return (
    <form noValidate aria-label={messages.tenancy.brandingTitle} className="grid gap-6" onSubmit={asyncHandler(handleSubmit(onValid))}>
      <TextField
        label="Nome de exibição"
        autoComplete="organization"
        readOnly={!canManage}
        error={errors.displayName?.message}
        {...register('displayName')}
      />
      <div className="grid gap-2">
        <Label htmlFor={hexInputId}>Cor principal</Label>
        <div className="flex items-center gap-3">
          <input
            type="color"
            aria-label={messages.tenancy.colorPickerLabel}
            disabled={!canManage}
            value={pickerColor}
            onChange={(event) => setValue('primaryColor', event.target.value, { shouldDirty: true, shouldValidate: isSubmitted })}
            className="h-9 w-12 shrink-0 cursor-pointer rounded-md border bg-background p-1 disabled:cursor-not-allowed"
          />
          <Input
            id={hexInputId}
            className="max-w-40 font-mono"
            autoComplete="off"
            spellCheck={false}
            placeholder="#0d9488"
            readOnly={!canManage}
            aria-invalid={errors.primaryColor ? true : undefined}
            aria-describedby={errors.primaryColor ? hexErrorId : undefined}
            {...register('primaryColor')}
          />
        </div>
        {errors.primaryColor?.message ? (
          <p id={hexErrorId} className="text-sm font-medium text-destructive">
            {errors.primaryColor.message}
          </p>
        ) : null}
        <ColorPreview color={color} />
      </div>
      {canManage ? (
        <Button type="submit" className="justify-self-start" disabled={isSubmitting || !isDirty}>
          {isSubmitting ? messages.common.saving : messages.tenancy.saveChanges}
        </Button>
      ) : null}
    </form>
  );
}

/**
 * "Identidade visual" (DESIGN.md §2 "White-label"): what the clinic's own site, /auth and patient portal look like.
 * Editable by the clinic_admin; staff see it read-only (the server refuses their changes anyway).
 */
export function BrandingCard({ branding, canManage }: SectionProps) {
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2 className="text-lg">{messages.tenancy.brandingTitle}</h2>
        </CardTitle>
        <CardDescription>{messages.tenancy.brandingDescription}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <LogoSection branding={branding} canManage={canManage} />
        <BrandingForm branding={branding} canManage={canManage} />
      </CardContent>
      {canManage ? null : (
        <CardFooter className="gap-2 text-sm text-muted-foreground">
          <LockIcon aria-hidden="true" className="size-4" />
          {messages.tenancy.brandingReadOnly}
        </CardFooter>
      )}
    </Card>
  );
}
