// /settings/practitioners: an admin sees every practitioner with the colour it is shown in, chooses one, and resets it.
import { describe, expect, it } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fireEvent } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { components } from '../../src/api/schema';
import { server } from './support/fakeApi';
import { renderApp, useFakeApi } from './support/harness';
import { DaySchedule } from '../../src/features/appointments/DaySchedule';
import type { AppointmentSummary } from '../../src/features/appointments/api';

useFakeApi();

type Practitioner = components['schemas']['Practitioner'];

function fakePractitioners() {
  const automatic: Record<number, string> = { 7: '#c13b3b', 8: '#3bc1c1', 9: '#7a3bc1' };
  const rows: Practitioner[] = [
    { id: 7, full_name: 'Pat Nurse', active: true, color: automatic[7], color_chosen: false },
    { id: 8, full_name: 'Quinn Physio', active: true, color: '#112233', color_chosen: true },
    { id: 9, full_name: 'Rory Gone', active: false, color: automatic[9], color_chosen: false },
  ];
  const patches: Array<{ id: number; color: string | null }> = [];
  server.use(
    http.get('*/api/practitioners/all', () => HttpResponse.json({ practitioners: rows })),
    http.patch('*/api/practitioners/:id', async ({ request, params }) => {
      const id = Number(params.id);
      const { color } = (await request.json()) as { color: string | null };
      patches.push({ id, color });
      const row = rows.find((candidate) => candidate.id === id)!;
      Object.assign(row, color === null ? { color: automatic[id] ?? '#000000', color_chosen: false } : { color, color_chosen: true });
      return HttpResponse.json({ practitioner: row });
    }),
  );
  return { patches };
}

const rowOf = (name: string) => screen.getAllByTestId('practitioner-row').find((row) => row.textContent?.includes(name))!;

describe('practitioners settings', () => {
  it('lists practitioners with status and colour, saves a chosen colour and resets one to automatic', async () => {
    const { patches } = fakePractitioners();
    const user = userEvent.setup();
    renderApp('/settings/practitioners', { as: 'ADMIN' });
    expect(await screen.findByRole('heading', { name: 'Practitioners', level: 1 })).toBeInTheDocument();
    await screen.findByRole('table', { name: 'Practitioners' });
    expect(within(rowOf('Pat Nurse')).getByText('Active')).toBeInTheDocument();
    expect(within(rowOf('Rory Gone')).getByText('Inactive')).toBeInTheDocument();
    expect(within(rowOf('Pat Nurse')).getByTestId('practitioner-colour')).toHaveTextContent('#c13b3b · automatic');
    expect(within(rowOf('Pat Nurse')).queryByRole('button', { name: /Reset to automatic/ })).toBeNull();

    fireEvent.input(screen.getByLabelText('Colour of Pat Nurse'), { target: { value: '#00aa55' } });
    await user.click(screen.getByRole('button', { name: 'Save the colour of Pat Nurse' }));
    await waitFor(() => expect(within(rowOf('Pat Nurse')).getByTestId('practitioner-colour')).toHaveTextContent('#00aa55 · chosen'));
    expect(await screen.findByText('The practitioner’s colour has been saved.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Reset to automatic (Quinn Physio)' }));
    await waitFor(() => expect(within(rowOf('Quinn Physio')).getByTestId('practitioner-colour')).toHaveTextContent('#3bc1c1 · automatic'));
    expect(patches).toEqual([{ id: 7, color: '#00aa55' }, { id: 8, color: null }]);
  });

  it('is listed as a working page on the settings index', async () => {
    fakePractitioners();
    renderApp('/settings', { as: 'ADMIN' });
    const list = await screen.findByRole('list', { name: 'Settings pages' });
    expect(within(list).getByRole('link', { name: /^Practitioners/ })).toHaveAttribute('href', '/settings/practitioners');
  });
});

describe('the schedule’s lanes', () => {
  it('show each practitioner in the colour the server gives them', () => {
    const visit = (id: number, who: AppointmentSummary['practitioner']): AppointmentSummary => ({
      id, starts_at: '2026-11-23T23:00:00Z', ends_at: '2026-11-24T00:00:00Z', arrive_at: null, route_id: null, status: 'BOOKED',
      suburb: null, lat: null, lng: null, business_location_id: null, client: null, practitioner: who, appointment_type: null,
    });
    render(
      <DaySchedule
        businessTimeZone="Australia/Brisbane"
        appointments={[
          visit(1, { id: 7, full_name: 'Pat Nurse', time_zone: 'Australia/Brisbane', color: '#aa3377' }),
          visit(2, { id: 8, full_name: 'Quinn Physio', time_zone: 'Australia/Brisbane', color: '#228833' }),
        ]}
      />,
    );
    const dot = (name: string) => within(screen.getByRole('listitem', { name })).getAllByText('', { selector: 'span[aria-hidden="true"]' })[0];
    expect(dot('Pat Nurse')).toHaveStyle({ backgroundColor: '#aa3377' });
    expect(dot('Quinn Physio')).toHaveStyle({ backgroundColor: '#228833' });
  });
});
