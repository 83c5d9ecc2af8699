import { describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { AppointmentDetailsModal } from '../../src/features/schedule/AppointmentDetailsModal';
import { OPEN_APPOINTMENT_EVENT } from '../../src/app/modalStore';
import { api, server, received as sent } from './support/fakeApi';
import { makeAppointment, makeClient } from './support/fixtures';
import { renderWithServices, useFakeApi } from './support/harness';

useFakeApi();

const NO_EXTRA = { resource_map: null, versions: [], import_history: [], export_history: [] };

function serve(appointment = makeAppointment(), extra: Record<string, unknown> = NO_EXTRA) {
  server.use(
    http.get(api(`/appointments/${appointment.id}`), () => HttpResponse.json({ appointment })),
    http.get(api(`/appointments/${appointment.id}/extra_details`), () => HttpResponse.json(extra)),
  );
}

const openModal = (id = 501) => renderWithServices(<AppointmentDetailsModal appointmentId={id} onClose={() => {}} />);

describe('appointment details modal', () => {
  it('shows the appointment in the business’s time zone (the one every screen names), even for a practitioner in Perth, with map and map links', async () => {
    serve(makeAppointment({ practitioner: { id: 7, full_name: 'Pat Nguyen', active: true, time_zone: 'Australia/Perth' } }));
    const view = openModal();
    const modal = await screen.findByTestId('appointment-details-modal');
    expect(await within(modal).findByText('Pat Nguyen')).toBeInTheDocument();
    // 23:00Z is 09:00 in Brisbane (UTC+10, the business's zone), on 24 Nov; 07:00 in Perth.
    expect(within(modal).getByText('24 Nov 2026 09:00')).toBeInTheDocument();
    expect(within(modal).getByText('24 Nov 2026 10:00')).toBeInTheDocument();
    expect(within(modal).getByTestId('arrival-time')).toHaveTextContent('08:50');
    expect(within(modal).getByText('Home visit (60 min)')).toBeInTheDocument();
    expect(within(modal).getByText('Key under the mat')).toBeInTheDocument();
    expect(await within(modal).findByTestId('svg-map')).toHaveAttribute('data-marker-count', '1');
    const query = encodeURIComponent('12 Given Tce, Paddington QLD 4064, Australia');
    expect(within(modal).getByRole('link', { name: 'Google Maps' })).toHaveAttribute('href', `https://www.google.com/maps/search/?api=1&query=${query}`);
    expect(within(modal).getByRole('link', { name: 'Apple Maps' })).toHaveAttribute('href', `https://maps.apple.com/?q=${query}`);
    expect(within(modal).getByRole('link', { name: 'Waze' })).toHaveAttribute('href', `https://waze.com/ul?q=${query}&navigate=yes`);
    view.unmount();
  });

  it("shows the client's agreed time, and says when the start is an exported arrival instead", async () => {
    serve(makeAppointment());
    const view = openModal();
    const agreed = await screen.findByTestId('agreed-time');
    expect(agreed).toHaveTextContent('09:00As booked. The tolerance is measured from it.');
    view.unmount();

    // Exported 08:40 as the start in the PMS; the client agreed to 09:00.
    serve(makeAppointment({ starts_at: '2026-11-23T22:40:00Z', ends_at: '2026-11-23T23:40:00Z', arrive_at: '2026-11-23T22:40:00Z', agreed_starts_at: '2026-11-23T23:00:00Z' }));
    const exported = openModal();
    expect(await screen.findByTestId('agreed-time')).toHaveTextContent(/^09:00Agreed with the client; the start is a planned arrival exported/);
    exported.unmount();
  });

  it('lists both practitioners of a two-carer visit, and one for a visit with one', async () => {
    serve(makeAppointment({
      practitioner: { id: 7, full_name: 'Pat Nguyen', active: true, time_zone: 'Australia/Brisbane' },
      partner: { appointment_id: 502, practitioner_id: 8, practitioner_name: 'Sam Lee' },
    }));
    const view = openModal();
    const modal = await screen.findByTestId('appointment-details-modal');
    const both = await within(modal).findByTestId('two-carer-practitioners');
    expect(both).toHaveTextContent('Two-carer visit: Pat Nguyen and Sam Lee');
    expect(within(modal).getByText('Practitioners')).toBeInTheDocument();
    view.unmount();

    serve(makeAppointment({ partner: null }));
    const single = openModal();
    await screen.findByText('Practitioner');
    expect(screen.queryByTestId('two-carer-practitioners')).toBeNull();
    single.unmount();
  });

  it('says the map is unavailable without coordinates', async () => {
    serve(makeAppointment({ lat: null, lng: null }));
    const view = openModal();
    expect(await screen.findByText('Map unavailable (location coordinates missing)')).toBeInTheDocument();
    expect(screen.queryByTestId('svg-map')).toBeNull();
    view.unmount();
  });

  it("warns when the arrival is outside the client's availability (client zone)", async () => {
    // Client available Tuesdays 12:00-15:00 in Brisbane; arrival 08:50 on Tuesday 24 Nov.
    serve(makeAppointment({ client: { id: 11, full_name: 'Margaret Jones', time_zone: 'Australia/Brisbane', availability: [{ dow: 2, hours: ['12:00-15:00'] }] } }));
    const view = openModal();
    expect(await screen.findByText("Outside client's availability")).toBeInTheDocument();
    expect(screen.getByTestId('availability-warning')).toHaveAttribute('title', "Outside client's availability");
    view.unmount();
  });

  it('shows no warning when the arrival is within the availability or there is none', async () => {
    serve(makeAppointment({ client: { id: 11, full_name: 'Margaret Jones', time_zone: 'Australia/Brisbane', availability: [{ dow: 2, hours: ['06:00-09:00'] }] } }));
    const view = openModal();
    await screen.findByText('Pat Nguyen');
    expect(screen.queryByTestId('availability-warning')).toBeNull();
    view.unmount();
  });

  it('lists the change log oldest first in words, names and 24-hour times in the practitioner zone, and the sync history', async () => {
    serve(makeAppointment(), {
      resource_map: { external_id: 'CLK-998877', external_object_synced_at: '2026-11-20T01:00:00Z' },
      versions: [
        {
          created_at: '2026-11-21T03:00:00Z', event: 'update', whodunnit: 'Alex Taylor',
          object_changes: { arrive_at: ['2026-11-23T22:50:00Z', '2026-11-24T02:35:00Z'], practitioner_id: [7, 2], lat: [-27.46, -27.5] },
          changes: [
            { field: 'practitioner_id', label: 'Practitioner', kind: 'text', from: 'Pat Nguyen', to: 'Quinn Lee' },
            { field: 'arrive_at', label: 'Arrival time', kind: 'instant', from: '2026-11-23T22:50:00Z', to: '2026-11-24T02:35:00Z' },
            { field: 'position', label: 'Map position', kind: 'position', from: null, to: null },
          ],
          reason: "Moved in Cliniko since the last import: Cliniko's time replaced the local arrival time 10:00 that was not exported.",
        },
        {
          created_at: '2026-11-20T01:00:00Z', event: 'create', whodunnit: null,
          object_changes: { notes: [null, 'Key under the mat'] },
          changes: [{ field: 'notes', label: 'Notes', kind: 'text', from: null, to: 'Key under the mat' }],
        },
      ],
      import_history: [{ timestamp: '2026-11-20T01:00:00Z', author_full_name: 'Alex Taylor' }],
      export_history: [],
    });
    const view = openModal();
    const entries = await screen.findAllByTestId('change-log-entry');
    expect(entries).toHaveLength(2);
    expect(entries[0]).toHaveTextContent('Created by the system');
    expect(entries[0]).toHaveTextContent('Notes: Key under the mat');
    expect(entries[1]).toHaveTextContent('Changed by Alex Taylor');
    expect(within(entries[1]).getAllByTestId('change-log-change').map((line) => line.textContent)).toEqual([
      'Practitioner: Pat Nguyen → Quinn Lee',
      'Arrival time: 24 Nov 2026 08:50 → 24 Nov 2026 12:35',
      'Map position changed',
    ]);
    expect(within(entries[1]).getByTestId('change-log-reason')).toHaveTextContent("Moved in Cliniko since the last import: Cliniko's time replaced");
    expect(within(entries[0]).queryByTestId('change-log-reason')).toBeNull();
    expect(entries[1]).not.toHaveTextContent(/ id|lat|lng|AM|PM/);
    expect(screen.getByTestId('external-id')).toHaveTextContent('CLK-998877');
    expect(screen.getByRole('list', { name: 'Import history' })).toHaveTextContent('20 Nov 2026 11:00 — Alex Taylor');
    view.unmount();
  });

  it('reports extra details that cannot be loaded', async () => {
    server.use(
      http.get(api('/appointments/501'), () => HttpResponse.json({ appointment: makeAppointment() })),
      http.get(api('/appointments/501/extra_details'), () => new HttpResponse(null, { status: 500 })),
    );
    const view = openModal();
    const modal = await screen.findByTestId('appointment-details-modal');
    await waitFor(() => expect(within(modal).getByRole('alert')).toHaveTextContent('An error has occurred. Could not load appointment extra details.'), { timeout: 5000 });
    // Said once, in the modal: no toast repeating it over the page.
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.getAllByText('An error has occurred. Could not load appointment extra details.')).toHaveLength(1);
    view.unmount();
  });

  it('reports an appointment that cannot be loaded', async () => {
    server.use(http.get(api('/appointments/501'), () => new HttpResponse(null, { status: 500 })));
    const view = openModal();
    const modal = await screen.findByTestId('appointment-details-modal');
    await waitFor(() => expect(within(modal).getByRole('alert')).toHaveTextContent('An error has occurred. Could not load appointment details.'), { timeout: 5000 });
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.getAllByText('An error has occurred. Could not load appointment details.')).toHaveLength(1);
    view.unmount();
  });

  it('says once, in the modal and not in a toast, that a linked appointment does not exist', async () => {
    server.use(http.get(api('/appointments/999999'), () => HttpResponse.json({ message: 'Appointment not found.' }, { status: 404 })));
    const view = openModal(999999);
    const modal = await screen.findByTestId('appointment-details-modal');
    await waitFor(() => expect(within(modal).getByRole('alert')).toHaveTextContent('Appointment not found.'), { timeout: 5000 });
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.getAllByText('Appointment not found.')).toHaveLength(1);
    view.unmount();
  });

  it('keeps showing an appointment it was handed when refreshing it fails, and says so in the modal', async () => {
    server.use(http.get(api('/appointments/501'), () => new HttpResponse(null, { status: 500 })), http.get(api('/appointments/501/extra_details'), () => HttpResponse.json(NO_EXTRA)));
    const view = renderWithServices(<AppointmentDetailsModal appointmentId={501} initial={makeAppointment()} onClose={() => {}} />);
    const modal = await screen.findByTestId('appointment-details-modal');
    await waitFor(() => expect(within(modal).getByText('An error has occurred. Could not load appointment details.')).toBeInTheDocument(), { timeout: 5000 });
    expect(within(modal).getByText('Client')).toBeInTheDocument();
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.getAllByText('An error has occurred. Could not load appointment details.')).toHaveLength(1);
    view.unmount();
  });

  // Saving with Enter (the PUT, the toast, the time shown) and no editing on a route are walked by
  // tests/model/arrival-time-editor.model.test.tsx.
  it('shows the allowed window (the booked time ± its tolerance) in 24-hour time before typing, steps by 5 minutes, and refuses a time outside it in words', async () => {
    serve();
    const user = userEvent.setup();
    const view = openModal();
    await user.click(await screen.findByRole('button', { name: 'Edit arrival time' }));
    const input = screen.getByLabelText('Arrival time');
    expect(input).toHaveValue('08:50');
    expect(input).toHaveAccessibleDescription('Allowed: 08:30 to 09:30 (30 minutes either side of the booked time), Australia/Brisbane time. 24-hour clock, 5-minute steps.');
    await user.keyboard('{ArrowUp}{ArrowUp}');
    expect(input).toHaveValue('09:00');
    await user.clear(input);
    await user.type(input, '13:30{Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent(
      "The arrival time must be between 08:30 and 09:30: within 30 minutes of the booked time, on the appointment's day (Australia/Brisbane).",
    );
    expect(screen.getByRole('alert')).not.toHaveTextContent('arrive_at');
    expect(sent.some((request) => request.method === 'PUT')).toBe(false);
    view.unmount();
  });

  it('opens the client modal from the client name', async () => {
    serve();
    server.use(
      http.get(api('/clients/11'), () => HttpResponse.json({ client: makeClient() })),
      http.get(api('/tags/all'), () => HttpResponse.json({ tags: [] })),
    );
    const user = userEvent.setup();
    const view = renderWithServices(<></>);
    act(() => {
      window.dispatchEvent(new CustomEvent(OPEN_APPOINTMENT_EVENT, { detail: { id: 501 } }));
    });
    const modal = await screen.findByTestId('appointment-details-modal');
    await user.click(await within(modal).findByRole('button', { name: 'Margaret Jones' }));
    expect(await screen.findByTestId('client-details-modal')).toBeInTheDocument();
    await user.click(within(screen.getByTestId('client-details-modal')).getAllByRole('button', { name: 'Close' }).at(-1)!);
    // Closing the client modal returns to the appointment.
    expect(await screen.findByTestId('appointment-details-modal')).toBeInTheDocument();
    view.unmount();
  });

  it('opens from the global event with an appointment object, showing it at once', async () => {
    const appointment = makeAppointment({ id: 777, notes: 'Given as an object' });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.use(
      http.get(api('/appointments/777'), async () => {
        await gate;
        return HttpResponse.json({ appointment });
      }),
      http.get(api('/appointments/777/extra_details'), () => HttpResponse.json(NO_EXTRA)),
    );
    const view = renderWithServices(<></>);
    act(() => {
      window.dispatchEvent(new CustomEvent(OPEN_APPOINTMENT_EVENT, { detail: appointment }));
    });
    // Shown before the refresh by id answers.
    expect(await screen.findByText('Given as an object')).toBeInTheDocument();
    release();
    view.unmount();
  });
});
