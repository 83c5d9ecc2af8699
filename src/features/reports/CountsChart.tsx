// A report's bar chart (Recharts): one bar per category with its count (or a measure: hours, dollars), in the app's
// accent colour. The figures are in the summary and the table too, so screen readers skip the drawing.
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

export function CountsChart({ data, name = 'Clients', decimals = false }: {
  data: readonly { label: string; count: number }[];
  /** What the bars count, in the tooltip. */
  name?: string;
  /** Whether the axis may show fractions (a measure rather than a count). */
  decimals?: boolean;
}) {
  // Bars lie down, so each category's name reads in full on a phone too.
  return (
    <div aria-hidden="true" data-testid="report-chart" className="w-full" style={{ height: 40 + data.length * 36 }}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart accessibilityLayer={false} data={[...data]} layout="vertical" margin={{ top: 4, right: 16, bottom: 4, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" horizontal={false} stroke="currentColor" strokeOpacity={0.15} />
          <XAxis type="number" allowDecimals={decimals} tick={{ fontSize: 12, fill: 'currentColor' }} tickLine={false} />
          <YAxis type="category" dataKey="label" width={128} tick={{ fontSize: 12, fill: 'currentColor' }} tickLine={false} axisLine={false} />
          <Tooltip cursor={{ fillOpacity: 0.08 }} />
          <Bar dataKey="count" name={name} fill="#0284c7" radius={[0, 4, 4, 0]} barSize={20} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
