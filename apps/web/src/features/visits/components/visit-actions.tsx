import { messages } from '@carteirinha/shared/messages';
import { ClipboardPlusIcon, HistoryIcon } from 'lucide-react';
import { useState } from 'react';
import { LoadWhenOpen } from '@/components/load-when-open';
import { Button } from '@/components/ui/button';
import { lazyComponent } from '@/lib/lazy-component';
import type { VisitCard } from './register-visit-dialog';

const RegisterVisitDialog = lazyComponent(() => import('./register-visit-dialog'), (m) => m.RegisterVisitDialog);
const VisitHistoryDialog = lazyComponent(() => import('./visit-history-dialog'), (m) => m.VisitHistoryDialog);

/** The buttons under a valid card on Validar Cartão: Registrar Atendimento and Ver Histórico, with their dialogs. */
export function VisitActions({ card }: { card: VisitCard }) {
  const [open, setOpen] = useState<'none' | 'register' | 'history'>('none');
  const onOpenChange = (open: boolean) => (open ? undefined : setOpen('none'));
  return (
    <>
      <Button type="button" onClick={() => setOpen('register')}>
        <ClipboardPlusIcon aria-hidden="true" />
        {messages.cards.registerVisit}
      </Button>
      <Button type="button" variant="outline" onClick={() => setOpen('history')}>
        <HistoryIcon aria-hidden="true" />
        {messages.cards.viewHistory}
      </Button>
      <LoadWhenOpen open={open === 'register'}>
        <RegisterVisitDialog card={card} open={open === 'register'} onOpenChange={onOpenChange} />
      </LoadWhenOpen>
      <LoadWhenOpen open={open === 'history'}>
        <VisitHistoryDialog cardId={card.cardId} personName={card.personName} open={open === 'history'} onOpenChange={onOpenChange} />
      </LoadWhenOpen>
    </>
  );
}
