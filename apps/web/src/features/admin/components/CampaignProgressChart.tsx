import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

export interface CampaignProgressRow {
  name: string;
  [stage: string]: number | string;
}

export interface CampaignProgressChartProps {
  rows: CampaignProgressRow[];
  /** Stages to stack, in order: the key in each row, its label and colour. */
  stages: { key: string; label: string; color: string }[];
}

/**
 * The campaigns' progress as stacked bars, one per campaign (recharts, in its own chunk like the
 * coverage chart). The caller wraps it in role="img" with a summary and gives the same figures as a
 * table; recharts' own keyboard layer is off.
 */
export default function CampaignProgressChart({ rows, stages }: CampaignProgressChartProps) {
  return (
    <ResponsiveContainer width="100%" height={Math.max(120, 56 * rows.length + 64)}>
      <BarChart data={rows} layout="vertical" margin={{ top: 8, right: 16, bottom: 8, left: 8 }} accessibilityLayer={false}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis type="number" allowDecimals={false} />
        <YAxis type="category" dataKey="name" width={160} />
        <Tooltip />
        <Legend />
        {stages.map((s) => (
          <Bar key={s.key} dataKey={s.key} name={s.label} stackId="people" fill={s.color} isAnimationActive={false} />
        ))}
      </BarChart>
    </ResponsiveContainer>
  );
}
