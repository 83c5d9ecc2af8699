// The business's week start (Account settings) is the one rule for "a week": the reports' "This week" and "Last week"
// presets and the calendars start on it; without a business (a public page) weeks start on Monday.
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { Temporal } from 'temporal-polyfill';
import { REPORT_PRESETS } from '../../src/features/reports/reportFilters';
import { BusinessDefaultsContext, SPEC_DEFAULTS, weekStartOf, type WeekStart } from '../../src/app/businessDefaults';
import { DateRangePicker, type DayRange } from '../../src/ui/DateRangePicker';

const wednesday = Temporal.PlainDate.from('2026-11-25');

function Picker() {
  const [range, setRange] = useState<DayRange>({ start: wednesday, end: wednesday });
  return (
    <>
      <DateRangePicker label="Range" today={wednesday} presets={REPORT_PRESETS} value={range} onChange={setRange} />
      <output data-testid="chosen">{`${range.start.toString()} ${range.end.toString()}`}</output>
    </>
  );
}

const renderWith = (weekStart: WeekStart) => render(
  <BusinessDefaultsContext.Provider value={{ ...SPEC_DEFAULTS, weekStart }}><Picker /></BusinessDefaultsContext.Provider>,
);

describe('week start', () => {
  it('finds the first day of the week holding a day, for every setting', () => {
    expect(weekStartOf(wednesday, 1).toString()).toBe('2026-11-23'); // Monday
    expect(weekStartOf(wednesday, 0).toString()).toBe('2026-11-22'); // Sunday
    expect(weekStartOf(wednesday, 3).toString()).toBe('2026-11-25'); // Wednesday itself
    expect(weekStartOf(wednesday, 4).toString()).toBe('2026-11-19'); // the Thursday before
    expect(weekStartOf(Temporal.PlainDate.from('2026-11-22'), 1).toString()).toBe('2026-11-16'); // a Sunday, weeks from Monday
  });

  it.each([
    [1 as WeekStart, '2026-11-23 2026-11-29', '2026-11-16 2026-11-22'],
    [0 as WeekStart, '2026-11-22 2026-11-28', '2026-11-15 2026-11-21'],
  ])('with weeks starting on day %i, the reports’ week presets follow', async (weekStart, thisWeek, lastWeek) => {
    const user = userEvent.setup();
    renderWith(weekStart);
    await user.click(screen.getByRole('button', { name: 'This week' }));
    expect(screen.getByTestId('chosen')).toHaveTextContent(thisWeek);
    await user.click(screen.getByRole('button', { name: 'Last week' }));
    expect(screen.getByTestId('chosen')).toHaveTextContent(lastWeek);
  });

  it('starts the calendar’s weeks on it', async () => {
    const user = userEvent.setup();
    renderWith(0);
    await user.click(screen.getByTestId('date-range-value'));
    const grid = await screen.findByRole('grid');
    const firstDay = grid.querySelector('[aria-label="Sunday"], [aria-label="Monday"]');
    expect(firstDay?.getAttribute('aria-label')).toBe('Sunday');
  });
});
