// A report's chart over time (Recharts): one stacked bar per day — visits, and cancelled visits on top — so a
// range's busy and quiet days show at a glance. The figures are in the table too, so screen readers skip the drawing.
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatCalendarDate } from '../../lib/dates';

export function DailyChart({ data }: { data: readonly { day: string; visits: number; cancelled: number }[] }) {
  const shown = data.map((entry) => ({ ...entry, label: formatCalendarDate(entry.day).slice(0, 6) }));
  return (
    <div aria-hidden="true" data-testid="report-chart" className="h-56 w-full">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart accessibilityLayer={false} data={shown} margin={{ top: 4, right: 8, bottom: 4, left: -16 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="currentColor" strokeOpacity={0.15} />
          <XAxis dataKey="label" tick={{ fontSize: 12, fill: 'currentColor' }} tickLine={false} minTickGap={12} />
          <YAxis allowDecimals={false} tick={{ fontSize: 12, fill: 'currentColor' }} tickLine={false} axisLine={false} />
          <Tooltip cursor={{ fillOpacity: 0.08 }} />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          <Bar dataKey="visits" name="Visits" stackId="day" fill="#0284c7" isAnimationActive={false} />
          <Bar dataKey="cancelled" name="Cancelled" stackId="day" fill="#f59e0b" radius={[4, 4, 0, 0]} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
