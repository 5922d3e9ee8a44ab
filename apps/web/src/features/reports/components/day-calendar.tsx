import { formatMessage, messages } from '@carteirinha/shared/messages';
import { format, parseISO } from 'date-fns';
import { useId } from 'react';
import { DayPicker, type ClassNames } from 'react-day-picker';
import { ptBR } from 'react-day-picker/locale/pt-BR';
import { buttonVariants } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import { formatIsoDay } from '@carteirinha/shared/format';

const m = messages.reports;

/** The years the month and year lists offer: from 2000 to the end of next year. */
const FIRST_MONTH = new Date(2000, 0, 1);
function lastMonth(): Date {
  return new Date(new Date().getFullYear() + 1, 11, 1);
}

/** The calendar in the product's look (shadcn/ui's Calendar, on react-day-picker). */
const CALENDAR_CLASSES: Partial<ClassNames> = {
  root: 'w-fit',
  months: 'relative flex flex-col gap-4',
  month: 'flex w-full flex-col gap-3',
  nav: 'absolute inset-x-0 top-0 flex items-center justify-between',
  button_previous: cn(buttonVariants({ variant: 'ghost', size: 'icon' }), 'size-8 aria-disabled:opacity-50'),
  button_next: cn(buttonVariants({ variant: 'ghost', size: 'icon' }), 'size-8 aria-disabled:opacity-50'),
  month_caption: 'flex h-8 items-center justify-center px-8',
  dropdowns: 'flex items-center justify-center gap-1.5 text-sm font-medium',
  dropdown_root: 'relative rounded-md border border-input shadow-xs has-focus:border-ring has-focus:ring-[3px] has-focus:ring-ring/50',
  dropdown: 'absolute inset-0 cursor-pointer opacity-0',
  caption_label: 'flex h-8 items-center gap-1 rounded-md pr-1 pl-2 text-sm font-medium select-none [&>svg]:size-3.5 [&>svg]:text-muted-foreground',
  chevron: 'size-4 fill-current',
  month_grid: 'w-full border-collapse',
  weekdays: 'flex',
  weekday: 'w-9 text-[0.8rem] font-normal text-muted-foreground select-none',
  week: 'mt-1 flex w-full',
  day: 'size-9 p-0 text-center text-sm',
  day_button: cn(
    buttonVariants({ variant: 'ghost', size: 'icon' }),
    'size-9 font-normal tabular-nums aria-selected:opacity-100 data-[selected=true]:bg-primary data-[selected=true]:text-primary-foreground',
  ),
  selected: '[&>button]:bg-primary [&>button]:text-primary-foreground [&>button:hover]:bg-primary [&>button:hover]:text-primary-foreground',
  today: '[&>button]:border [&>button]:border-primary',
  outside: 'text-muted-foreground',
  disabled: 'text-muted-foreground opacity-50',
  hidden: 'invisible',
};

type DayCalendarProps = {
  /** 'Data Inicial' or 'Data Final': names the group that holds the calendar. */
  label: string;
  /** The chosen day as yyyy-MM-dd, or '' while none is chosen. */
  value: string;
  onChange: (day: string) => void;
};

/**
 * One single-date calendar of 'Filtrar por Período' (specification §2), in pt-BR, with the chosen day written out in
 * dd/MM/yyyy. Days are calendar days: the browser's time zone never moves them.
 */
export function DayCalendar({ label, value, onChange }: DayCalendarProps) {
  const labelId = useId();
  const chosenId = useId();
  const selected = value ? parseISO(value) : undefined;
  return (
    <div role="group" aria-labelledby={labelId} aria-describedby={chosenId} className="grid content-start justify-items-center gap-2">
      <div className="flex w-full flex-wrap items-baseline justify-between gap-x-3">
        <span id={labelId} className="text-sm font-medium">
          {label}
        </span>
        <span id={chosenId} data-testid="chosen-date" className="text-sm text-muted-foreground tabular-nums" aria-live="polite">
          {value ? formatMessage(m.chosenDate, { date: formatIsoDay(value) }) : m.noDateChosen}
        </span>
      </div>
      <DayPicker
        mode="single"
        required
        locale={ptBR}
        captionLayout="dropdown"
        startMonth={FIRST_MONTH}
        endMonth={lastMonth()}
        defaultMonth={selected}
        selected={selected}
        onSelect={(day) => onChange(format(day, 'yyyy-MM-dd'))}
        classNames={CALENDAR_CLASSES}
        // Its month navigation is a landmark: named after this calendar, so the two of the dialog are told apart.
        labels={{ labelNav: () => formatMessage(m.calendarNav, { label }) }}
      />
    </div>
  );
}
