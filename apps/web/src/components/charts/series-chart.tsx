import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { SeriesChartProps } from './chart-types';

/** The chart's height: enough for 12 weeks of bars on a phone and a desktop alike. */
const HEIGHT = 260;

/**
 * The product's one chart (recharts, DESIGN.md §3), loaded with the page that draws it and never before (build/budgets.ts
 * lists it as heavy code). Its picture is for the eye: recharts' keyboard layer is off, and the data table beside it
 * (ChartCard) is what a screen reader and a keyboard read.
 */
/** Pixels a 12 px tick character takes, about; the axis must fit its longest label on one line ('R$ 1.250,00'). */
const TICK_CHARACTER_PX = 7;

/**
 * The value axis' width from its longest label: the largest point (its values summed), formatted, rounded up as the axis rounds its top
 * tick (up to twice the value). A fixed width wrapped 'R$ 600,00' over two lines and wasted room on counts.
 */
function valueAxisWidth(points: SeriesChartProps['points'], formatValue: (value: number) => string): number {
  // A point's sum: the top of a stacked bar, and never less than any line's value.
  const largest = Math.max(0, ...points.map((point) => Object.values(point.values).reduce((sum, value) => sum + value, 0)));
  return Math.max(32, formatValue(largest * 2).length * TICK_CHARACTER_PX + 12);
}

export function SeriesChart({ kind, points, series, formatValue }: SeriesChartProps) {
  const data = points.map((point) => ({ label: point.label, ...point.values }));
  const axisWidth = valueAxisWidth(points, formatValue);
  const axes = (
    <>
      <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="var(--border)" />
      <XAxis dataKey="label" tick={{ fontSize: 12 }} tickLine={false} minTickGap={16} />
      <YAxis tick={{ fontSize: 12 }} tickLine={false} axisLine={false} width={axisWidth} tickFormatter={formatValue} allowDecimals={false} />
      <Tooltip formatter={(value) => (typeof value === 'number' ? formatValue(value) : String(value))} />
      <Legend />
    </>
  );
  return (
    <ResponsiveContainer width="100%" height={HEIGHT}>
      {kind === 'line' ? (
        <LineChart data={data} accessibilityLayer={false}>
          {axes}
          {series.map((item) => (
            <Line key={item.key} dataKey={item.key} name={item.name} stroke={item.color} strokeWidth={2} dot={false} isAnimationActive={false} />
          ))}
        </LineChart>
      ) : (
        <BarChart data={data} accessibilityLayer={false}>
          {axes}
          {series.map((item) => (
            <Bar
              key={item.key}
              dataKey={item.key}
              name={item.name}
              fill={item.color}
              stackId={kind === 'stacked-bar' ? 'stack' : undefined}
              isAnimationActive={false}
            />
          ))}
        </BarChart>
      )}
    </ResponsiveContainer>
  );
}
