import { SERVICE_CATEGORY_LABELS, type PriceTable } from '@carteirinha/shared/contracts/services';
import { formatMoney } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { ArrowLeftIcon } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { DataTable, rowsPlaceholder, type DataColumn } from '@/components/ui/data-table';
import { ErrorText } from '@/components/ui/error-text';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { LogoMark } from '@/components/ui/logo-mark';
import { useClinicTenant } from '@/features/tenancy/api/get-tenant';
import { usePriceTable } from '../api/get-price-table';
import { priceTableDayOf, saoPauloDayOf, shownDay } from '../lib/price-table';

const p = messages.priceTable;

/** The address keeps the day shown, so a table of a past day can be shared as a link. */
const DAY_PARAM = 'data';

type PriceRow = PriceTable['items'][number];

/** Below this width of the table's container each service is a card with its full price and every plan's. */
const CARDS_BELOW_PX = 720;

function columnsFor(plans: PriceTable['plans']): DataColumn<PriceRow>[] {
  return [
    { id: 'service', header: p.service, cell: (row) => <span className="font-medium">{row.name}</span> },
    { id: 'category', header: p.category, cell: (row) => SERVICE_CATEGORY_LABELS[row.category] },
    { id: 'full', header: p.fullPrice, cell: (row) => formatMoney(row.fullPriceCents), className: 'whitespace-nowrap tabular-nums' },
    ...plans.map(
      (plan): DataColumn<PriceRow> => ({
        id: `plan-${plan.id}`,
        header: formatMessage(p.cardPrice, { plan: plan.name }),
        cell: (row) => {
          const price = row.cardPrices.find((candidate) => candidate.planId === plan.id);
          return price ? formatMoney(price.cardPriceCents) : '-';
        },
        className: 'whitespace-nowrap tabular-nums font-semibold',
      }),
    ),
  ];
}

function DayPicker({ shown, today, onPick }: { shown: string; today: string; onPick: (day: string | undefined) => void }) {
  const inputId = useId();
  const [typed, setTyped] = useState(shown === today ? '' : shown);
  const [problem, setProblem] = useState<string | null>(null);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const asked = priceTableDayOf(typed, today);
    if ('error' in asked) {
      setProblem(asked.error);
      return;
    }
    setProblem(null);
    onPick(asked.day);
  };

  return (
    <form noValidate onSubmit={submit} className="grid gap-2">
      <Label htmlFor={inputId}>{p.dateLabel}</Label>
      <div className="flex flex-wrap items-center gap-2">
        <Input
          id={inputId}
          type="date"
          max={today}
          value={typed}
          aria-invalid={problem ? true : undefined}
          onChange={(event) => setTyped(event.target.value)}
          className="w-auto min-w-44"
        />
        <Button type="submit" variant="outline">
          {p.showDate}
        </Button>
        <Button
          type="button"
          variant="ghost"
          onClick={() => {
            setTyped('');
            setProblem(null);
            onPick(undefined);
          }}
        >
          {p.today}
        </Button>
      </div>
      {problem ? <ErrorText>{problem}</ErrorText> : null}
    </form>
  );
}

/**
 * The clinic's public price table (issue 25), on its own site and open to anyone: each service's full price and its
 * price with each plan's card, today or as it was on a past day — so a patient can check the price they were promised.
 */
export function PublicPriceTablePage() {
  const tenant = useClinicTenant();
  const clinicName = tenant?.clinic.name ?? messages.landing.brandName;
  const [searchParams, setSearchParams] = useSearchParams();
  const today = saoPauloDayOf(new Date());
  const asked = priceTableDayOf(searchParams.get(DAY_PARAM) ?? '', today);
  const day = 'day' in asked ? asked.day : undefined;
  const table = usePriceTable(day);

  const pick = (picked: string | undefined) =>
    setSearchParams((current) => {
      if (picked) current.set(DAY_PARAM, picked);
      else current.delete(DAY_PARAM);
      return current;
    });

  const shown = table.data?.date ?? day ?? today;
  const emptyText = day ? p.emptyOnDate : p.empty;
  return (
    <div className="flex min-h-svh flex-col bg-muted">
      <header className="border-b bg-background">
        <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-3 px-4 sm:px-6">
          <a
            href="/"
            className="inline-flex min-w-0 items-center gap-2 rounded-md text-base font-bold tracking-tight outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 sm:text-lg"
          >
            <LogoMark src={tenant?.clinic.logoUrl ?? null} alt="" />
            <span className="truncate">{clinicName}</span>
          </a>
          <Button asChild variant="ghost" size="sm">
            <Link to="/">
              <ArrowLeftIcon aria-hidden="true" />
              {messages.notFound.backHome}
            </Link>
          </Button>
        </div>
      </header>
      <main className="mx-auto grid w-full max-w-6xl flex-1 content-start gap-6 px-4 py-8 sm:px-6">
        <div className="grid gap-2">
          <h1 className="text-3xl font-bold tracking-tight">{p.title}</h1>
          <p className="text-muted-foreground">{p.description}</p>
        </div>
        <DayPicker key={shown} shown={shown} today={today} onPick={pick} />
        <section aria-labelledby="price-table-date" className="grid gap-3">
          <h2 id="price-table-date" data-testid="price-table-date" className="text-lg font-semibold">
            {formatMessage(p.asOf, { date: shownDay(shown) })}
          </h2>
          <div className="rounded-xl border bg-background p-2">
            <DataTable
              rows={table.data?.items}
              rowKey={(row) => row.serviceId}
              columns={columnsFor(table.data?.plans ?? [])}
              titleColumn="service"
              caption={formatMessage(p.caption, { clinic: clinicName })}
              placeholder={rowsPlaceholder({ rows: table.data?.items, error: table.error, onRetry: () => void table.refetch(), retrying: table.isFetching, emptyText })}
              cardsBelow={CARDS_BELOW_PX}
              busy={table.isFetching}
            />
          </div>
        </section>
      </main>
    </div>
  );
}
