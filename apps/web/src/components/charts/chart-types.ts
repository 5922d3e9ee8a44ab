/** One line or bar series of a chart: which value of each point it draws, under what name, in what colour. */
export type ChartSeries = { key: string; name: string; color: string };

/** One point of a chart (a day, a week, a month): its label on the axis and in the table, and each series' value. */
export type ChartPoint = { label: string; values: Readonly<Record<string, number>> };

export type ChartKind = 'line' | 'bar' | 'stacked-bar';

export type SeriesChartProps = {
  kind: ChartKind;
  points: readonly ChartPoint[];
  series: readonly ChartSeries[];
  /** How a value reads in the tooltip and on the axis (a count, or reais). */
  formatValue: (value: number) => string;
};
