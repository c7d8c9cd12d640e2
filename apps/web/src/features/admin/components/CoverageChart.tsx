import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

/** One day of the chart: shares in percent (0-100). */
export interface CoverageChartPoint {
  day: string;
  [series: string]: number | string;
}

export interface CoverageChartProps {
  points: CoverageChartPoint[];
  /** Series to draw, in order: the key in each point, its label and colour. */
  series: { key: string; label: string; color: string }[];
  /** Formats a day (YYYY-MM-DD) for the axis and the tooltip. */
  formatDay: (day: string) => string;
}

/**
 * The coverage chart (recharts), in its own chunk: loaded only when the reports screen shows it. The
 * caller wraps it in an element with role="img" and a summary, and gives the figures as a table too;
 * recharts' own keyboard layer is off (the table is the accessible form of the same data).
 */
export default function CoverageChart({ points, series, formatDay }: CoverageChartProps) {
  return (
    <ResponsiveContainer width="100%" height={300}>
      <LineChart data={points} margin={{ top: 8, right: 16, bottom: 8, left: 0 }} accessibilityLayer={false}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis dataKey="day" tickFormatter={formatDay} minTickGap={24} />
        <YAxis domain={[0, 100]} unit="%" width={48} />
        <Tooltip labelFormatter={(d) => formatDay(String(d))} formatter={(v) => `${Number(v).toFixed(1)}%`} />
        <Legend />
        {series.map((s) => (
          <Line
            key={s.key}
            type="monotone"
            dataKey={s.key}
            name={s.label}
            stroke={s.color}
            strokeWidth={2}
            dot={points.length < 40}
            isAnimationActive={false}
          />
        ))}
      </LineChart>
    </ResponsiveContainer>
  );
}
