import type { ValidateCardRequest } from '@carteirinha/shared/contracts/cards';
import { messages } from '@carteirinha/shared/messages';
import { RotateCcwIcon, ShieldCheckIcon } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { errorMessage } from '@/lib/error-message';
import { cn } from '@/lib/utils';
import { VisitActions } from '@/features/visits/components/visit-actions';
import { useValidateCard } from '../api/validate-card';
import { groupCardNumber } from '../lib/card-format';
import { CameraScanner } from './camera-scanner';
import { ValidationResultPanel, type ValidatorAnswer, type ValidCardResult } from './validation-result-panel';

const s = messages.cardScreens;

/** The longest code the API takes (validateCardRequestSchema). */
const MAX_CODE_LENGTH = 200;

type CardValidatorProps = {
  /** Where the code comes from: the QR's token ('qrcode') or a number or CPF typed at the desk ('manual'). */
  source: ValidateCardRequest['source'];
  label: string;
  placeholder: string;
  /** Shown beside the form (the how-it-works list). */
  aside?: ReactNode;
};

/** A valid card's Registrar Atendimento and Ver Histórico. Keyed by card, so a new card starts with closed dialogs. */
function visitActionsFor(result: ValidCardResult) {
  const card = { cardId: result.card.id, cardNumber: groupCardNumber(result.card.number), personName: result.person.name, discounts: result.discounts };
  return <VisitActions key={card.cardId} card={card} />;
}

/**
 * The validation form of Validar QR Code and Validar Cartão: a code (Enter submits; blank does nothing), 'Validar',
 * 'Ativar Câmera' (a read fills the code and validates), 'Novo', and the one result panel both pages share. The panel
 * is the answer: on a phone it comes first and scrolls into view, and its heading takes focus; no toast covers it.
 */
export function CardValidator({ source, label, placeholder, aside }: CardValidatorProps) {
  const inputId = useId();
  const [code, setCode] = useState('');
  const [answer, setAnswer] = useState<ValidatorAnswer | null>(null);
  const validation = useValidateCard();
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (!answer) return;
    headingRef.current?.focus({ preventScroll: true });
    headingRef.current?.closest('section')?.scrollIntoView({ block: 'start' });
  }, [answer]);

  async function validate(typed: string) {
    const cardToken = typed.trim();
    // Specification §5: an empty or whitespace code does nothing.
    if (!cardToken || validation.isPending) return;
    try {
      setAnswer({ kind: 'answer', result: await validation.mutateAsync({ cardToken, source }) });
    } catch (error) {
      setAnswer({ kind: 'failed', message: errorMessage(error) });
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
    setAnswer(null);
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
      {/* On a phone an answer comes before the form, so it is the first thing in view; before one, the form leads. */}
      <div className={cn('grid gap-4', answer && 'order-first lg:order-none')}>
        {answer ? (
          <ValidationResultPanel ref={headingRef} answer={answer} renderValidActions={visitActionsFor} />
        ) : (
          <p className="rounded-xl border border-dashed p-6 text-center text-sm text-muted-foreground">{s.resultEmpty}</p>
        )}
      </div>
    </div>
  );
}
