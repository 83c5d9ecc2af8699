// A report's bar chart (Recharts): one bar per category with its count, in the app's accent colour; the figures are
// in the summary and the table too, so the chart is decoration for sighted users and hidden from screen readers.
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

export function CountsChart({ data }: { data: readonly { label: string; count: number }[] }) {
  return (
    <div aria-hidden="true" data-testid="report-chart" className="h-48 w-full">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={[...data]} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="currentColor" strokeOpacity={0.15} />
          <XAxis dataKey="label" tick={{ fontSize: 12, fill: 'currentColor' }} tickLine={false} interval={0} />
          <YAxis allowDecimals={false} tick={{ fontSize: 12, fill: 'currentColor' }} tickLine={false} axisLine={false} />
          <Tooltip cursor={{ fillOpacity: 0.08 }} />
          <Bar dataKey="count" name="Clients" fill="#0284c7" radius={[4, 4, 0, 0]} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
