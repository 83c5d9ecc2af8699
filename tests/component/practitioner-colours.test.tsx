// Practitioners' colours: the settings index links the page where they are chosen (practitioners-settings.test.tsx), and
// the schedule's lanes show each practitioner in the colour the server gives them.
import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { renderPage, useFakeApi } from './support/harness';
import SettingsIndexPage from '../../src/features/settings/SettingsIndexPage';
import { DaySchedule } from '../../src/features/schedule/DaySchedule';
import type { AppointmentSummary } from '../../src/entities/appointments/api';

useFakeApi();

describe('practitioners settings', () => {
  it('is listed as a working page on the settings index', async () => {
    renderPage(SettingsIndexPage, { path: '/settings', role: 'ADMIN' });
    const list = await screen.findByRole('list', { name: 'Settings pages' });
    expect(within(list).getByRole('link', { name: /^Practitioners/ })).toHaveAttribute('href', '/settings/practitioners');
  });
});

describe('the schedule’s lanes', () => {
  it('show each practitioner in the colour the server gives them', () => {
    const visit = (id: number, who: AppointmentSummary['practitioner']): AppointmentSummary => ({
      id, starts_at: '2026-11-23T23:00:00Z', ends_at: '2026-11-24T00:00:00Z', arrive_at: null, route_id: null, status: 'BOOKED',
      suburb: null, lat: null, lng: null, geo_precision: 'none', business_location_id: null, client: null, practitioner: who, appointment_type: null,
      visit_state: 'not_started', visit: null, pms_write_state: null,
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
