import type { ValidateCardRequest, ValidateCardResponse } from '@carteirinha/shared/contracts/cards';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { RotateCcwIcon, ShieldCheckIcon } from 'lucide-react';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { errorMessage } from '@/lib/error-message';
import { toast } from '@/lib/toasts';
import { useValidateCard } from '../api/validate-card';
import { CameraScanner } from './camera-scanner';
import { ValidationResultPanel, type ValidCardResult } from './validation-result-panel';

const s = messages.cardScreens;

/** The longest code the API takes (validateCardRequestSchema). */
const MAX_CODE_LENGTH = 200;

type CardValidatorProps = {
  /** Where the code comes from: the QR's token ('qrcode') or a number or CPF typed at the desk ('manual'). */
  source: ValidateCardRequest['source'];
  label: string;
  placeholder: string;
  renderValidActions?: (result: ValidCardResult) => ReactNode;
  /** Shown beside the form (the how-it-works list). */
  aside?: ReactNode;
};

/** Tells the receptionist the outcome at once: the server's message as a success toast, or the error toast (§8). */
function announce(result: ValidateCardResponse): void {
  if (result.valid) toast.success(messages.cards.validated, { description: result.message });
  else toast.error(formatMessage(messages.cards.validateError, { message: result.message }));
}

/**
 * The validation form of Validar QR Code and Validar Cartão: a code (Enter submits; blank does nothing), 'Validar',
 * 'Ativar Câmera' (a read fills the code and validates), 'Novo', and the result panel.
 */
export function CardValidator({ source, label, placeholder, renderValidActions, aside }: CardValidatorProps) {
  const inputId = useId();
  const [code, setCode] = useState('');
  const [result, setResult] = useState<ValidateCardResponse | null>(null);
  const validation = useValidateCard();

  async function validate(typed: string) {
    const cardToken = typed.trim();
    // Specification §5: an empty or whitespace code does nothing.
    if (!cardToken || validation.isPending) return;
    try {
      const answer = await validation.mutateAsync({ cardToken, source });
      setResult(answer);
      announce(answer);
    } catch (error) {
      setResult(null);
      toast.error(formatMessage(messages.cards.validateError, { message: errorMessage(error) }));
    }
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void validate(code);
  }

  function onScan(text: string) {
    setCode(text.slice(0, MAX_CODE_LENGTH));
    void validate(text.slice(0, MAX_CODE_LENGTH));
  }

  function reset() {
    setCode('');
    setResult(null);
    validation.reset();
  }

  return (
    <div className="grid gap-6 lg:grid-cols-2 lg:items-start">
      <div className="grid gap-6">
        <Card className="py-5">
          <CardContent className="grid gap-4 px-5">
            <form onSubmit={onSubmit} className="grid gap-3">
              <Label htmlFor={inputId}>{label}</Label>
              <Input
                id={inputId}
                value={code}
                onChange={(event) => setCode(event.target.value)}
                placeholder={placeholder}
                maxLength={MAX_CODE_LENGTH}
                autoComplete="off"
                autoCapitalize="off"
                spellCheck={false}
                enterKeyHint="go"
              />
              <div className="grid grid-cols-2 gap-2">
                <Button type="submit" disabled={validation.isPending}>
                  <ShieldCheckIcon aria-hidden="true" />
                  {validation.isPending ? s.validating : s.validate}
                </Button>
                <Button type="button" variant="outline" onClick={reset}>
                  <RotateCcwIcon aria-hidden="true" />
                  {messages.cards.newValidation}
                </Button>
              </div>
            </form>
            <CameraScanner onScan={onScan} />
          </CardContent>
        </Card>
        {aside}
      </div>
      <div className="grid gap-4">
        {result ? (
          <ValidationResultPanel result={result} renderValidActions={renderValidActions} />
        ) : (
          <p className="rounded-xl border border-dashed p-6 text-center text-sm text-muted-foreground">{s.resultEmpty}</p>
        )}
      </div>
    </div>
  );
}
