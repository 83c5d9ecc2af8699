// The client details modal's care plan and absences: a plan in words with its counts, the form's weekdays as toggle
// buttons, its problems in words beside the fields (its own and the server's), what is sent, ending a plan, and an
// absence whose answer says what it paused. A practitioner sees neither.
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { Temporal } from 'temporal-polyfill';
import { ClientDetailsModal } from '../../src/features/clients/ClientDetailsModal';
import type { components } from '../../src/api/schema';
import { api, received, server } from './support/fakeApi';
import { makeClient } from './support/fixtures';
import { renderWithServices, useFakeApi } from './support/harness';

useFakeApi();

type CarePlan = components['schemas']['CarePlan'];

const PERSONAL_CARE = { id: 3, name: 'Personal care', duration: 45 };
const MEDICATION = { id: 4, name: 'Medication check', duration: 15 };
const PRACTITIONERS = [{ id: 7, full_name: 'Pat Nguyen', active: true }, { id: 8, full_name: 'Sam Lee', active: true }];
const today = () => Temporal.Now.plainDateISO('Australia/Brisbane');

function makePlan(overrides: Partial<CarePlan> = {}): CarePlan {
  return {
    id: 51, client_id: 11, appointment_type: PERSONAL_CARE, weekdays: [1, 3, 5], window_start: '07:30', window_end: '09:00', duration_minutes: 45, carers: 2,
    starts_on: today().add({ days: 1 }).toString(), ends_on: null, preferred_practitioner_ids: [], notes: null, upcoming_visits: 6, open_visits: 3,
    created_at: '2026-12-01T00:00:00Z', updated_at: '2026-12-01T00:00:00Z', ...overrides,
  };
}

function serveClient(plans: CarePlan[] = []) {
  server.use(
    http.get(api('/clients/11'), () => HttpResponse.json({ client: makeClient() })),
    http.get(api('/tags/all'), () => HttpResponse.json({ tags: [] })),
    http.get(api('/practitioners/all'), () => HttpResponse.json({ practitioners: PRACTITIONERS })),
    http.get(api('/appointment_types/all'), () => HttpResponse.json({ appointment_types: [PERSONAL_CARE, MEDICATION] })),
    http.get(api('/clients/11/care_plans'), () => HttpResponse.json({ care_plans: plans })),
  );
}

const carePlan = () => screen.findByRole('region', { name: 'Care plan' });
const sent = (method: string, path: string) => received.filter((request) => request.method === method && request.path === `/api${path}`);

describe('the client’s care plan', () => {
  it('shows each plan in words with its booked and open visits', async () => {
    serveClient([makePlan()]);
    renderWithServices(<ClientDetailsModal clientId={11} onClose={() => {}} />);
    const row = await within(await carePlan()).findByTestId('care-plan-row');
    const start = today().add({ days: 1 });
    const day = `${start.day} ${start.toLocaleString('en-AU', { month: 'short' })}${start.year === today().year ? '' : ` ${start.year}`}`;
    expect(row).toHaveTextContent(`Personal care · Mon, Wed, Fri · 07:30–09:00 · 45 min · from ${day} · ongoing · 2 carers`);
    expect(row).toHaveTextContent('6 upcoming visits booked · 3 open visits');
  });

  it('adds a plan: weekdays toggled, the duration the type’s, problems said in words until they are fixed', async () => {
    serveClient();
    server.use(http.post(api('/clients/11/care_plans'), async ({ request }) => HttpResponse.json({ care_plan: makePlan(await request.json() as Partial<CarePlan>) }, { status: 201 })));
    const user = userEvent.setup();
    renderWithServices(<ClientDetailsModal clientId={11} onClose={() => {}} />);
    await user.click(await within(await carePlan()).findByRole('button', { name: 'Add to care plan' }));
    const form = screen.getByRole('form', { name: 'New care plan' });

    await user.click(within(form).getByRole('button', { name: 'Add care plan' }));
    expect(form).toHaveTextContent('Choose the type of visit.');
    expect(form).toHaveTextContent('Choose at least one day of the week.');
    expect(form).toHaveTextContent('Enter the earliest start, e.g. 07:30.');
    expect(form).toHaveTextContent('Enter a whole number of minutes from 5 to 720.');
    expect(sent('POST', '/clients/11/care_plans')).toHaveLength(0);

    await user.selectOptions(within(form).getByLabelText('Type of visit'), 'Personal care (45 min)');
    expect(within(form).getByLabelText('Duration (minutes)')).toHaveValue('45');
    for (const day of ['Mon', 'Wed', 'Fri', 'Sun']) await user.click(within(form).getByRole('button', { name: day }));
    await user.click(within(form).getByRole('button', { name: 'Sun' }));
    expect(within(form).getByRole('button', { name: 'Mon' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(form).getByRole('button', { name: 'Sun' })).toHaveAttribute('aria-pressed', 'false');
    await user.type(within(form).getByLabelText('Window from'), '09:00');
    await user.type(within(form).getByLabelText('Window to'), '07:30');
    await user.click(within(form).getByRole('button', { name: 'Add care plan' }));
    expect(form).toHaveTextContent('The window must end after it starts.');
    expect(within(form).getByLabelText('Window to')).toHaveAccessibleDescription('The window must end after it starts.');

    await user.clear(within(form).getByLabelText('Window from'));
    await user.type(within(form).getByLabelText('Window from'), '07:30');
    await user.clear(within(form).getByLabelText('Window to'));
    await user.type(within(form).getByLabelText('Window to'), '09:00');
    await user.click(within(form).getByLabelText('Two carers'));
    await user.click(within(form).getByRole('button', { name: 'Add care plan' }));

    await waitFor(() => expect(sent('POST', '/clients/11/care_plans')).toHaveLength(1));
    expect(sent('POST', '/clients/11/care_plans')[0].body).toEqual({
      appointment_type_id: 3, weekdays: [1, 3, 5], window_start: '07:30', window_end: '09:00', duration_minutes: 45, carers: 2,
      starts_on: today().add({ days: 1 }).toString(), ends_on: null, preferred_practitioner_ids: [],
    });
    expect(await screen.findByText('The care plan has been added: its visits are open until care visits are planned.')).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'New care plan' })).toBeNull();
  });

  it('drops the server’s refusal of the duration once the window it was weighed against changes', async () => {
    serveClient([makePlan()]);
    const TOO_LONG = 'a 45-minute visit does not fit in the window 07:30–08:00; widen the window or shorten the visit.';
    server.use(http.patch(api('/care_plans/51'), () => HttpResponse.json({ message: 'Invalid request', errors: [`duration_minutes: ${TOO_LONG}`] }, { status: 422 })));
    const user = userEvent.setup();
    renderWithServices(<ClientDetailsModal clientId={11} onClose={() => {}} />);
    await user.click(await within(await carePlan()).findByRole('button', { name: 'Edit Personal care plan' }));
    const form = screen.getByRole('form', { name: 'Change care plan' });
    await user.click(within(form).getByRole('button', { name: 'Save care plan' }));
    expect(await within(form).findByText(/45-minute visit does not fit in the window 07:30–08:00/)).toBeInTheDocument();
    await user.clear(within(form).getByLabelText('Window to'));
    await user.type(within(form).getByLabelText('Window to'), '10:00');
    expect(within(form).queryByText(/45-minute visit does not fit/)).toBeNull();
  });

  it('asks before closing the modal over a plan not saved', async () => {
    serveClient();
    const closed: string[] = [];
    const user = userEvent.setup();
    renderWithServices(<ClientDetailsModal clientId={11} onClose={() => closed.push('closed')} />);
    await user.click(await within(await carePlan()).findByRole('button', { name: 'Add to care plan' }));
    await user.click(within(screen.getByRole('form', { name: 'New care plan' })).getByRole('button', { name: 'Wed' }));
    await user.click(screen.getByRole('button', { name: 'Close' }));
    const question = await screen.findByRole('alertdialog', { name: 'Discard unsaved changes?' });
    expect(question).toHaveTextContent('Your changes to the care plan have not been saved.');
    await user.click(within(question).getByRole('button', { name: 'Keep editing' }));
    expect(closed).toEqual([]);
    await user.click(within(screen.getByRole('form', { name: 'New care plan' })).getByRole('button', { name: 'Cancel' }));
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(closed).toEqual(['closed']);
  });

  it('shows the server’s refusal beside the field it names', async () => {
    serveClient([makePlan()]);
    server.use(http.patch(api('/care_plans/51'), () => HttpResponse.json(
      { message: 'Invalid request', errors: ['starts_on: A changed plan starts today or later.'] }, { status: 422 },
    )));
    const user = userEvent.setup();
    renderWithServices(<ClientDetailsModal clientId={11} onClose={() => {}} />);
    await user.click(await within(await carePlan()).findByRole('button', { name: 'Edit Personal care plan' }));
    const form = screen.getByRole('form', { name: 'Change care plan' });
    expect(within(form).getByLabelText('Duration (minutes)')).toHaveValue('45');
    await user.click(within(form).getByRole('button', { name: 'Tue' }));
    await user.click(within(form).getByRole('button', { name: 'Save care plan' }));
    expect(await within(form).findByText('A changed plan starts today or later.')).toBeInTheDocument();
    expect(sent('PATCH', '/care_plans/51')[0].body).toMatchObject({ weekdays: [1, 2, 3, 5], carers: 2 });
  });

  it('ends a plan on its last day and says what it took away', async () => {
    serveClient([makePlan()]);
    server.use(http.post(api('/care_plans/51/end'), async ({ request }) => {
      const { ends_on } = await request.json() as { ends_on: string };
      return HttpResponse.json({ care_plan: makePlan({ ends_on }), cancelled_visits: 4, removed_open_visits: 2 });
    }));
    const user = userEvent.setup();
    renderWithServices(<ClientDetailsModal clientId={11} onClose={() => {}} />);
    await user.click(await within(await carePlan()).findByRole('button', { name: 'End Personal care plan' }));
    const form = screen.getByRole('form', { name: 'End Personal care plan' });
    await user.click(within(form).getByRole('button', { name: 'End plan' }));
    expect(await screen.findByText('The care plan ends on its last day. 4 visits cancelled, 2 open visits removed.')).toBeInTheDocument();
    expect(sent('POST', '/care_plans/51/end')[0].body).toEqual({ ends_on: today().toString() });
  });

  it('says in words why the server would not end a plan on that day', async () => {
    serveClient([makePlan()]);
    server.use(http.post(api('/care_plans/51/end'), () => HttpResponse.json(
      { message: 'ends_on: the plan starts on Thursday 10 December; it cannot end before.' }, { status: 422 },
    )));
    const user = userEvent.setup();
    renderWithServices(<ClientDetailsModal clientId={11} onClose={() => {}} />);
    await user.click(await within(await carePlan()).findByRole('button', { name: 'End Personal care plan' }));
    const form = screen.getByRole('form', { name: 'End Personal care plan' });
    await user.click(within(form).getByRole('button', { name: 'End plan' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(/^The plan starts on Thursday 10 December; it cannot end before\.$/);
  });
});

describe('the client’s absences', () => {
  it('adds an absence and says how many visits it cancelled and open visits it removed; removes one after asking', async () => {
    serveClient();
    let absences: components['schemas']['ClientAbsence'][] = [];
    server.use(
      http.get(api('/clients/11/absences'), () => HttpResponse.json({ absences })),
      http.post(api('/clients/11/absences'), async ({ request }) => {
        const body = await request.json() as { starts_on: string; ends_on: string; reason: 'hospital'; note?: string };
        absences = [{ id: 90, client_id: 11, note: null, created_at: '2026-12-01T00:00:00Z', ...body }];
        return HttpResponse.json({ absence: absences[0], cancelled_visits: 2, removed_open_visits: 1 }, { status: 201 });
      }),
      http.delete(api('/client_absences/90'), () => {
        absences = [];
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const user = userEvent.setup();
    renderWithServices(<ClientDetailsModal clientId={11} onClose={() => {}} />);
    const section = await screen.findByRole('region', { name: 'Away / in hospital' });
    expect(await within(section).findByText('No absences.')).toBeInTheDocument();
    await user.click(within(section).getByRole('button', { name: 'Add absence' }));
    const form = within(section).getByRole('form', { name: 'New absence' });
    expect(within(form).getByLabelText('Reason')).toHaveValue('hospital');
    await user.type(within(form).getByLabelText('Note'), 'Knee surgery');
    await user.click(within(form).getByRole('button', { name: 'Add absence' }));

    expect(await screen.findByText('The absence has been added. 2 visits cancelled, 1 open visit removed.')).toBeInTheDocument();
    expect(sent('POST', '/clients/11/absences')[0].body).toEqual({ starts_on: today().toString(), ends_on: today().toString(), reason: 'hospital', note: 'Knee surgery' });
    const row = await within(section).findByTestId('absence-row');
    expect(row).toHaveTextContent('In hospital · Knee surgery');

    await user.click(within(row).getByRole('button', { name: /Remove absence/ }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Remove' }));
    expect(await within(section).findByText('No absences.')).toBeInTheDocument();
    expect(sent('DELETE', '/client_absences/90')).toHaveLength(1);
  });

  it('are not shown to a practitioner, nor is the care plan', async () => {
    serveClient([makePlan()]);
    renderWithServices(<ClientDetailsModal clientId={11} onClose={() => {}} />, { role: 'PRACTITIONER' });
    await screen.findByRole('region', { name: 'Tags' });
    expect(screen.queryByRole('region', { name: 'Care plan' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Away / in hospital' })).toBeNull();
    expect(sent('GET', '/clients/11/care_plans')).toHaveLength(0);
  });
});
