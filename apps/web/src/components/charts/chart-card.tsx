import { formatMessage, messages } from '@carteirinha/shared/messages';
import { Suspense, useId } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { lazyComponent } from '@/lib/lazy-component';
import type { SeriesChartProps } from './chart-types';

const d = messages.clinicDashboard;

// The charting library arrives with the first chart drawn, never with a portal's first page.
const SeriesChart = lazyComponent(() => import('./series-chart'), (m) => m.SeriesChart);

type ChartCardProps = SeriesChartProps & {
  title: string;
  description: string;
  /** The heading of the table's first column (Dia, Semana, Mês). */
  pointHeader: string;
};

/** The chart's figures as a table: its accessible alternative, and the exact numbers behind each bar. */
function ChartTable({ title, pointHeader, points, series, formatValue }: Omit<ChartCardProps, 'description' | 'kind'>) {
  return (
    <Table>
      <TableCaption>{formatMessage(d.chartTable, { title })}</TableCaption>
      <TableHeader>
        <TableRow>
          <TableHead scope="col">{pointHeader}</TableHead>
          {series.map((item) => (
            <TableHead key={item.key} scope="col" className="text-right">
              {item.name}
            </TableHead>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {points.map((point) => (
          <TableRow key={point.label}>
            <TableHead scope="row" className="font-normal whitespace-nowrap">
              {point.label}
            </TableHead>
            {series.map((item) => (
              <TableCell key={item.key} className="text-right tabular-nums">
                {formatValue(point.values[item.key] ?? 0)}
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/**
 * A chart in its card: title, what it shows, the picture (loaded lazily), and under 'Ver os dados em tabela' the same
 * figures as a table for whoever cannot or would rather not read the picture.
 */
export function ChartCard({ title, description, pointHeader, kind, points, series, formatValue }: ChartCardProps) {
  const titleId = useId();
  return (
    <Card role="region" aria-labelledby={titleId} data-testid="chart-card" className="min-w-0">
      <CardHeader>
        <CardTitle asChild className="text-lg">
          <h3 id={titleId}>{title}</h3>
        </CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className="grid min-w-0 gap-4">
        <div role="img" aria-label={title} className="h-[260px] min-w-0">
          <Suspense fallback={<p className="py-24 text-center text-sm text-muted-foreground">{d.chartLoading}</p>}>
            <SeriesChart kind={kind} points={points} series={series} formatValue={formatValue} />
          </Suspense>
        </div>
        <details className="group min-w-0 overflow-x-auto">
          <summary className="cursor-pointer text-sm font-medium text-primary-text">{d.chartTableShow}</summary>
          <ChartTable title={title} pointHeader={pointHeader} points={points} series={series} formatValue={formatValue} />
        </details>
      </CardContent>
    </Card>
  );
}
