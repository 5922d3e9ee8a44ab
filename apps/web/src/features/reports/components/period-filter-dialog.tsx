import { messages } from '@carteirinha/shared/messages';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { toast } from '@/lib/toasts';
import { checkPeriod, periodLabel, type ReportPeriod } from '../lib/period';
import { DayCalendar } from './day-calendar';

const m = messages.reports;

type PeriodFilterDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The period in use, which the calendars start from. */
  period: ReportPeriod | null;
  onApply: (period: ReportPeriod) => void;
};

/**
 * 'Filtrar por Período' (specification §2, §5): two single-date calendars, 'Data Inicial' and 'Data Final'; a wrong
 * choice is said in an error toast and applies nothing.
 */
export function PeriodFilterDialog({ open, onOpenChange, period, onApply }: PeriodFilterDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{m.filterTitle}</DialogTitle>
          <DialogDescription>{m.filterDescription}</DialogDescription>
        </DialogHeader>
        {/* Mounted only while open, so each opening starts from the period in use. */}
        <PeriodForm
          period={period}
          onCancel={() => onOpenChange(false)}
          onApply={(chosen) => {
            onApply(chosen);
            onOpenChange(false);
          }}
        />
      </DialogContent>
    </Dialog>
  );
}

type PeriodFormProps = { period: ReportPeriod | null; onCancel: () => void; onApply: (period: ReportPeriod) => void };

function PeriodForm({ period, onCancel, onApply }: PeriodFormProps) {
  const [from, setFrom] = useState(period?.from ?? '');
  const [to, setTo] = useState(period?.to ?? '');

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const checked = checkPeriod(from, to);
    if (!checked.ok) {
      toast.error(checked.message);
      return;
    }
    toast.success(periodLabel(checked.period));
    onApply(checked.period);
  }

  return (
    <form noValidate className="grid gap-4" onSubmit={submit}>
      <div className="grid justify-center gap-6 sm:grid-cols-2">
        <DayCalendar label={m.startDate} value={from} onChange={setFrom} />
        <DayCalendar label={m.endDate} value={to} onChange={setTo} />
      </div>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel}>
          {messages.common.cancel}
        </Button>
        <Button type="submit">{m.applyFilter}</Button>
      </DialogFooter>
    </form>
  );
}
