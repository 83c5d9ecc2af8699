// /settings/practitioners: an admin sees every practitioner's routing data, edits one (places, home placed by Find,
// hours, break, skills, limits, time zone), sees what is wrong under each field (ours before saving, the server's
// 422 after), is asked before losing edits, gives several practitioners the same hours at once, and records a
// practitioner's leave (whole days or part of a day; leave from Cliniko is only shown).
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { components } from '../../src/api/schema';
import { server } from './support/fakeApi';
import { deferred } from './support/fixtures';
import { currentPath, renderApp, renderPage, useFakeApi } from './support/harness';
import PractitionersSettingsPage from '../../src/features/settings/practitioners/PractitionersSettingsPage';

useFakeApi();

type Schemas = components['schemas'];
type PractitionerSettings = Schemas['PractitionerSettings'];

const weekdays = (start: string, end: string) => [...Array(5).fill({ start, end }), null, null] as PractitionerSettings['working_hours'];

function practitioner(id: number, first: string, last: string, extra: Partial<PractitionerSettings> = {}): PractitionerSettings {
  return {
    id, first_name: first, last_name: last, full_name: `${first} ${last}`, active: true, profession: 'Registered Nurse',
    time_zone: 'Australia/Brisbane', color: '#c13b3b', color_chosen: false,
    start_place: { kind: 'home', id: null, name: 'Home', address: '40 Stanley Street, Woolloongabba QLD 4102', lat: -27.49, lng: 153.03, geo_precision: 'address' },
    end_place: null,
    home: { address: '40 Stanley Street, Woolloongabba QLD 4102', lat: -27.49, lng: 153.03, precision: 'address', source: 'manual' },
    working_hours: weekdays('07:00', '17:30'), break: null, skill_appointment_type_ids: null, pms_appointment_type_ids: null,
    qualified_appointment_type_ids: null, max_visits: null, max_travel_minutes: null, routable: true, warnings: [],
    ...extra,
  };
}

interface Sent {
  patches: Array<{ id: number; body: Record<string, unknown> }>;
  bulk: Array<Record<string, unknown>>;
  geocoded: unknown[];
}

/** The fake API behind the page; `patch` may answer a PATCH itself (a 422), else it is applied. */
function serve({ patch, listed }: { patch?: (body: Record<string, unknown>) => Response | undefined; listed?: Promise<void> } = {}) {
  const rows: PractitionerSettings[] = [
    practitioner(7, 'Pat', 'Nurse', {
      working_hours: [...weekdays('07:00', '17:30').slice(0, 5), { start: '08:00', end: '12:00' }, null],
      // Cliniko lists wound care and showers for Pat.
      pms_appointment_type_ids: [4, 5], qualified_appointment_type_ids: [4, 5],
    }),
    practitioner(8, 'Quinn', 'Physio', {
      start_place: null, home: null, routable: false, color: '#112233', color_chosen: true,
      warnings: ['No start place: choose where the day starts (home, a business location or a custom location).'],
    }),
    practitioner(9, 'Rory', 'Gone', {
      active: false,
      // Cliniko lists wound care and showers for Rory; Rounds narrowed them to showers.
      pms_appointment_type_ids: [4, 5], skill_appointment_type_ids: [5], qualified_appointment_type_ids: [5],
      start_place: { kind: 'business_location', id: 1, name: 'Brisbane North', address: '42 Murphy Road, Chermside QLD 4032', lat: -27.38, lng: 153.02, geo_precision: 'street' },
      end_place: { kind: 'custom_location', id: 3, name: 'Depot', address: '20 Mayne Road', lat: -27.44, lng: 153.03, geo_precision: 'address' },
    }),
  ];
  const sent: Sent = { patches: [], bulk: [], geocoded: [] };
  server.use(
    http.get('*/api/practitioners', async () => {
      await listed;
      return HttpResponse.json({ practitioners: rows });
    }),
    http.get('*/api/practitioners/all', () => HttpResponse.json({ practitioners: rows.map(({ id, full_name, active }) => ({ id, full_name, active })) })),
    http.get('*/api/business_locations/all', () =>
      HttpResponse.json({
        business_locations: [
          { id: 1, name: 'Brisbane North', address: '42 Murphy Road, Chermside QLD 4032', lat: -27.38, lng: 153.02, geo_precision: 'street', geo_source: 'google' },
          { id: 2, name: 'Nowhere Clinic', address: null, lat: null, lng: null, geo_precision: 'none', geo_source: null },
        ],
      }),
    ),
    http.get('*/api/custom_locations', () =>
      HttpResponse.json({ custom_locations: [{ id: 3, name: 'Depot', address: '20 Mayne Road', lat: -27.44, lng: 153.03, used_by: [] }] }),
    ),
    http.get('*/api/appointment_types/all', () =>
      HttpResponse.json({ appointment_types: [{ id: 4, name: 'Wound care', duration: 45 }, { id: 5, name: 'Shower', duration: 30 }, { id: 6, name: 'Physiotherapy', duration: 60 }] }),
    ),
    http.post('*/api/geocode', async ({ request }) => {
      const body = await request.json();
      sent.geocoded.push(body);
      const line = (body as { address_1: string }).address_1;
      return HttpResponse.json(
        line.includes('Nowhere')
          ? { lat: null, lng: null, precision: 'none', source: null, label: null }
          : line.includes('Perth') ? { lat: -31.9523, lng: 115.8613, precision: 'address', source: 'google', label: '1 Hay St, Perth WA 6000' }
          : { lat: -27.4617, lng: 153.0025, precision: 'suburb', source: 'gazetteer', label: 'Paddington QLD 4064' },
      );
    }),
    http.patch('*/api/practitioners/:id', async ({ request, params }) => {
      const id = Number(params.id);
      const body = (await request.json()) as Record<string, unknown>;
      sent.patches.push({ id, body });
      const refused = patch?.(body);
      if (refused) return refused;
      const index = rows.findIndex((row) => row.id === id);
      rows[index] = {
        ...rows[index],
        ...(body.working_hours ? { working_hours: body.working_hours as PractitionerSettings['working_hours'] } : {}),
        ...(body.max_visits !== undefined ? { max_visits: body.max_visits as number | null } : {}),
        ...(body.end_place ? { end_place: { kind: 'business_location', id: 1, name: 'Brisbane North', address: null, lat: -27.38, lng: 153.02, geo_precision: 'street' } } : {}),
        ...(body.color !== undefined ? { color: (body.color as string | null) ?? '#c13b3b', color_chosen: body.color !== null } : {}),
      };
      return HttpResponse.json({ practitioner: rows[index] });
    }),
    http.put('*/api/practitioners/working_hours', async ({ request }) => {
      const body = (await request.json()) as { practitioner_ids: number[]; working_hours: PractitionerSettings['working_hours']; days?: number[] };
      sent.bulk.push(body);
      if (body.working_hours[6] !== null) {
        return HttpResponse.json(
          { message: 'working_hours[6]: on Sunday nobody may work.', errors: ['working_hours[6]: on Sunday nobody may work.'], code: 'VALIDATION_FAILED' },
          { status: 422 },
        );
      }
      for (const row of rows) {
        if (body.practitioner_ids.includes(row.id)) row.working_hours = row.working_hours.map((day, index) => (!body.days || body.days.includes(index) ? body.working_hours[index] : day));
      }
      return HttpResponse.json({
        practitioners: rows.filter((row) => body.practitioner_ids.includes(row.id)),
        visits_outside_hours: body.practitioner_ids.includes(7) ? [{ practitioner_id: 7, full_name: 'Pat Nurse', visits: 2 }] : [],
      });
    }),
  );
  return sent;
}

const rowOf = (name: string) => screen.getAllByTestId('practitioner-row').find((row) => row.textContent?.includes(name))!;
const names = () => screen.getAllByTestId('practitioner-row').map((row) => within(row).getByText(/^(Pat Nurse|Quinn Physio|Rory Gone)$/).textContent);

/** The page alone, or (`inApp`) in the whole app, to follow the address, then the editor of the practitioner named. */
async function openEditor(name: string, { inApp = false } = {}) {
  const user = userEvent.setup();
  if (inApp) renderApp('/settings/practitioners', { as: 'ADMIN' });
  else renderPage(PractitionersSettingsPage, { path: '/settings/practitioners', role: 'ADMIN' });
  await screen.findByRole('table', { name: 'Practitioners' });
  await user.click(screen.getByRole('button', { name: `Edit ${name}` }));
  const dialog = await screen.findByTestId('practitioner-edit-dialog');
  await within(dialog).findByLabelText('Start place');
  return { user, dialog };
}

describe('qualifications', () => {
  it('shows what Cliniko lists, what Rounds narrowed and the effective set, offers only Cliniko’s types, and names whoever has none', async () => {
    serve();
    const { user, dialog } = await openEditor('Rory Gone');
    // Quinn (active) has none from Cliniko and none chosen here; Rory is inactive.
    expect(screen.getByTestId('unknown-qualifications').textContent).toMatch(/^No known qualifications: Quinn Physio\. /);
    await waitFor(() => expect(within(dialog).getByTestId('qualifications').textContent)
      .toBe('From Cliniko:Wound care, ShowerNarrowed in Rounds:ShowerEffective:Shower'));
    expect(within(dialog).getByText(/Cliniko’s list wins: Rounds can only narrow it, never add a type Cliniko does not list/)).toBeTruthy();
    await user.click(within(dialog).getByTestId('multiselect-Appointment types they deliver'));
    expect(within(await screen.findByRole('listbox')).getAllByRole('option').map((option) => option.textContent)).toEqual(['Wound care', 'Shower']);
  });
});

describe('the practitioners list', () => {
  it('shows each practitioner’s start place, hours and whether they can be routed, and filters active and inactive', async () => {
    // The list answers only once the loading state has been seen (however fast the page itself loads).
    const answer = deferred<void>();
    serve({ listed: answer.promise });
    const user = userEvent.setup();
    renderApp('/settings/practitioners', { as: 'ADMIN' });
    expect(await screen.findByText('Loading practitioners…')).toBeInTheDocument();
    answer.resolve();
    await screen.findByRole('table', { name: 'Practitioners' });
    expect(names()).toEqual(['Pat Nurse', 'Quinn Physio', 'Rory Gone']);

    expect(within(rowOf('Pat Nurse')).getByTestId('hours')).toHaveTextContent('Mon–Fri 07:00–17:30Sat 08:00–12:00');
    expect(within(rowOf('Pat Nurse')).getByTestId('start-place')).toHaveTextContent('Home');
    expect(within(rowOf('Rory Gone')).getByTestId('start-place')).toHaveTextContent(/^Brisbane NorthApproximate: street only.*Ends: Depot$/);
    expect(within(rowOf('Pat Nurse')).getAllByTestId('routing-status')[0]).toHaveTextContent('Ready to route');
    expect(within(rowOf('Quinn Physio')).getAllByTestId('routing-status')[0]).toHaveTextContent(
      'Cannot be routedNo start place: choose where the day starts (home, a business location or a custom location).',
    );
    expect(within(rowOf('Quinn Physio')).getByTestId('start-place')).toHaveTextContent('Not chosen');

    await user.click(screen.getByRole('radio', { name: 'Inactive (1)' }));
    expect(names()).toEqual(['Rory Gone']);
    // Rory's settings would route, but an inactive practitioner is never routed.
    expect(within(rowOf('Rory Gone')).getAllByTestId('routing-status')[0]).toHaveTextContent('Inactive: not routed');
    expect(within(rowOf('Rory Gone')).getAllByTestId('routing-status')[0]).not.toHaveTextContent('Ready to route');
    expect(window.location.search).toBe('?show=inactive');
    await user.click(screen.getByRole('radio', { name: 'Active (2)' }));
    expect(names()).toEqual(['Pat Nurse', 'Quinn Physio']);
    await user.click(screen.getByRole('radio', { name: 'All (3)' }));
    expect(names()).toHaveLength(3);
  });

  it('marks a start place that is only placed at its suburb, and says nothing of one at its address', async () => {
    serve();
    const suburbHome = practitioner(10, 'Sue', 'Burb', {
      start_place: { kind: 'home', id: null, name: 'Home', address: 'Paddington QLD 4064', lat: -27.4617, lng: 153.0025, geo_precision: 'suburb' },
      home: { address: 'Paddington QLD 4064', lat: -27.4617, lng: 153.0025, precision: 'suburb', source: 'gazetteer' },
    });
    server.use(http.get('*/api/practitioners', () => HttpResponse.json({ practitioners: [practitioner(7, 'Pat', 'Nurse'), suburbHome] })));
    renderPage(PractitionersSettingsPage, { path: '/settings/practitioners', role: 'ADMIN' });
    await screen.findByRole('table', { name: 'Practitioners' });
    const mark = within(within(rowOf('Sue Burb')).getByTestId('start-place')).getByTestId('point-precision');
    expect(mark).toHaveTextContent('Approximate: suburb only');
    expect(mark).toHaveAttribute('data-precision', 'suburb');
    expect(within(rowOf('Pat Nurse')).queryByTestId('point-precision')).toBeNull();
  });

  it('opens the editor a link names, and forgets a link to a practitioner it does not have', async () => {
    serve();
    const app = renderApp('/settings/practitioners?edit=9', { as: 'ADMIN' });
    expect(await screen.findByRole('dialog', { name: 'Edit Rory Gone' })).toBeInTheDocument();
    app.stop();
    renderApp('/settings/practitioners?show=active&edit=404', { as: 'ADMIN' });
    await screen.findByRole('table', { name: 'Practitioners' });
    await waitFor(() => expect(window.location.search).toBe('?show=active'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it.each(['REGULAR_USER', 'PRACTITIONER'] as const)('is not shown to a %s', async (role) => {
    const sent = serve();
    renderApp('/settings/practitioners', { as: role });
    await waitFor(() => expect(currentPath()).toBe('/dashboard'));
    expect(screen.queryByRole('table', { name: 'Practitioners' })).toBeNull();
    expect(sent.patches).toEqual([]);
  });
});

describe('editing a practitioner', () => {
  it('places a new home with Find, says how precisely, and sends only what changed', async () => {
    const sent = serve();
    const { user, dialog } = await openEditor('Pat Nurse');
    expect(within(dialog).getByTestId('home-placement')).toHaveTextContent('Placed at the address (placed by hand). On the map at -27.4900, 153.0300;');

    const home = within(dialog).getByLabelText('Home address');
    await user.clear(home);
    await user.paste('3 Given Terrace, Paddington QLD 4064');
    expect(within(dialog).getByTestId('home-placement')).toHaveTextContent('Press Find to place the address on the map.');
    await user.click(within(dialog).getByRole('button', { name: 'Find' }));
    await waitFor(() =>
      expect(within(dialog).getByTestId('home-placement')).toHaveTextContent(
        'Placed at the centre of the suburb or postcode (from the Australian suburb and postcode table). Found: Paddington QLD 4064.',
      ),
    );
    expect(sent.geocoded).toEqual([{ address_1: '3 Given Terrace, Paddington QLD 4064' }]);

    await user.selectOptions(within(dialog).getByLabelText('End place'), 'Brisbane North');
    expect(within(dialog).getByText(/42 Murphy Road, Chermside QLD 4032 · Placed on the street, not at the exact building \(from Google\)\./)).toBeInTheDocument();
    await user.click(within(dialog).getByLabelText('Works on Friday'));
    await user.click(within(dialog).getByLabelText('Takes a break'));
    await user.clear(within(dialog).getByLabelText('Minutes'));
    await user.type(within(dialog).getByLabelText('Minutes'), '45');
    await user.click(within(dialog).getByTestId('multiselect-Appointment types they deliver'));
    await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'Wound care' }));
    await user.keyboard('{Escape}');
    await user.type(within(dialog).getByLabelText('Max visits a day'), '8');
    const zone = within(dialog).getByRole('combobox', { name: 'Time zone' });
    await user.clear(zone);
    await user.type(zone, 'perth');
    await user.click(await screen.findByRole('option', { name: 'Australia/Perth' }));

    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Pat Nurse’s settings have been saved.')).toBeInTheDocument();
    expect(sent.patches).toEqual([{
      id: 7,
      body: {
        home: { address: '3 Given Terrace, Paddington QLD 4064', lat: -27.4617, lng: 153.0025, precision: 'suburb', source: 'gazetteer' },
        end_place: { kind: 'business_location', id: 1 },
        working_hours: [...weekdays('07:00', '17:30').slice(0, 4), null, { start: '08:00', end: '12:00' }, null],
        break: { earliest: '12:00', latest: '13:30', minutes: 45 },
        skill_appointment_type_ids: [4],
        max_visits: 8,
        time_zone: 'Australia/Perth',
      },
    }]);
    await waitFor(() => expect(screen.queryByTestId('practitioner-edit-dialog')).toBeNull());
    expect(within(rowOf('Pat Nurse')).getByTestId('hours')).toHaveTextContent('Mon–Thu 07:00–17:30Sat 08:00–12:00');
    expect(within(rowOf('Pat Nurse')).getByTestId('start-place')).toHaveTextContent('Ends: Brisbane North');
  });

  it('says what is wrong under each field and sends nothing until it is right', async () => {
    const sent = serve();
    const { user, dialog } = await openEditor('Quinn Physio');
    await user.selectOptions(within(dialog).getByLabelText('Start place'), 'Home');
    await user.clear(within(dialog).getByLabelText('Tuesday end'));
    await user.type(within(dialog).getByLabelText('Tuesday end'), '06:00');
    await user.type(within(dialog).getByLabelText('Max visits a day'), '500');
    await user.click(within(dialog).getByLabelText('Takes a break'));
    await user.clear(within(dialog).getByLabelText('Starts no later than'));
    await user.type(within(dialog).getByLabelText('Starts no later than'), '11:00');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(within(dialog).getByLabelText('Home address')).toHaveAccessibleDescription(/^Enter the home address and press Find: the day starts or ends at home\./);
    expect(within(dialog).getByLabelText('Tuesday end')).toHaveAccessibleDescription('Tuesday: the end must be after the start.');
    expect(within(dialog).getByLabelText('Max visits a day')).toHaveAccessibleDescription('Max visits: a whole number from 1 to 100, or empty for no limit.');
    expect(within(dialog).getByLabelText('Starts no later than')).toHaveAccessibleDescription('The latest start of the break must not be before the earliest.');
    await waitFor(() => expect(within(dialog).getByLabelText('Home address')).toHaveFocus());

    // An address Find cannot place is not saved either.
    await user.type(within(dialog).getByLabelText('Home address'), 'Nowhere');
    await user.click(within(dialog).getByRole('button', { name: 'Find' }));
    await waitFor(() =>
      expect(within(dialog).getByTestId('home-placement')).toHaveTextContent('No place was found for this address. Write it as street, suburb, state and postcode'),
    );
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByLabelText('Home address')).toHaveAccessibleDescription(/^A home needs a place on the map: correct the address and press Find again\./);
    expect(sent.patches).toEqual([]);
  });

  it('shows the server’s 422 under the fields it names, and the rest above Save', async () => {
    const sent = serve({
      patch: () =>
        HttpResponse.json(
          {
            message: 'time_zone: "Australia/Perth" is not allowed for this practitioner.',
            errors: [
              'time_zone: "Australia/Perth" is not allowed for this practitioner.',
              'working_hours[1]: on Tuesday the end (17:30) must be after the start (07:00).',
              'Something else the form does not show.',
            ],
            code: 'VALIDATION_FAILED',
          },
          { status: 422 },
        ),
    });
    const { user, dialog } = await openEditor('Pat Nurse');
    const zone = within(dialog).getByRole('combobox', { name: 'Time zone' });
    await user.clear(zone);
    await user.type(zone, 'perth');
    await user.click(await screen.findByRole('option', { name: 'Australia/Perth' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(zone).toHaveAccessibleDescription('"Australia/Perth" is not allowed for this practitioner.'));
    expect(within(dialog).getByLabelText('Tuesday start')).toHaveAccessibleDescription('On Tuesday the end (17:30) must be after the start (07:00).');
    expect(within(dialog).getByText('Something else the form does not show.')).toBeInTheDocument();
    expect(sent.patches).toEqual([{ id: 7, body: { time_zone: 'Australia/Perth' } }]);
    expect(screen.getByTestId('practitioner-edit-dialog')).toBeInTheDocument();
  });

  it('asks before closing with unsaved changes, and keeps the link to the open dialog in the address', async () => {
    serve();
    const { user, dialog } = await openEditor('Pat Nurse', { inApp: true });
    expect(window.location.search).toBe('?edit=7');
    await user.type(within(dialog).getByLabelText('Max travel a day (minutes)'), '90');
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    const question = await screen.findByRole('alertdialog', { name: 'Discard unsaved changes?' });
    await user.click(within(question).getByRole('button', { name: 'Keep editing' }));
    expect(within(dialog).getByLabelText('Max travel a day (minutes)')).toHaveValue(90);
    await user.click(within(dialog).getByRole('button', { name: 'Close dialog' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Discard changes' }));
    await waitFor(() => expect(screen.queryByTestId('practitioner-edit-dialog')).toBeNull());
    expect(window.location.search).toBe('');
  });
});

describe('a home far from the business', () => {
  it('is found, with a warning naming how far it is from the nearest of the business’s places', async () => {
    serve();
    const { user, dialog } = await openEditor('Pat Nurse');
    const home = within(dialog).getByLabelText('Home address');
    await user.clear(home);
    await user.paste('1 Hay Street, Perth WA 6000');
    await user.click(within(dialog).getByRole('button', { name: 'Find' }));
    expect(await within(dialog).findByTestId('far-away')).toHaveTextContent(
      /^This place is 3,\d{3} km from the business’s map centre, the nearest of the business’s other places: check the address before saving\.$/,
    );
    await user.clear(home);
    await user.paste('3 Given Terrace, Paddington QLD 4064');
    await user.click(within(dialog).getByRole('button', { name: 'Find' }));
    await waitFor(() => expect(within(dialog).getByTestId('home-placement')).toHaveTextContent('Found: Paddington QLD 4064.'));
    expect(within(dialog).queryByTestId('far-away')).toBeNull();
  });
});

describe('times of day', () => {
  it('are 24-hour text fields whatever the browser’s locale, and read what people type', async () => {
    const sent = serve();
    const { user, dialog } = await openEditor('Pat Nurse');
    const mondayEnd = within(dialog).getByRole('textbox', { name: 'Monday end' });
    expect(within(dialog).getByRole('textbox', { name: 'Monday start' })).toHaveValue('07:00');
    expect(mondayEnd).toHaveValue('17:30');
    await user.clear(mondayEnd);
    await user.type(mondayEnd, '16.45');
    await user.tab();
    expect(mondayEnd).toHaveValue('16:45');
    await user.type(mondayEnd, '{ArrowUp}');
    expect(mondayEnd).toHaveValue('16:50');
    await user.click(within(dialog).getByLabelText('Takes a break'));
    expect(within(dialog).getByRole('textbox', { name: 'Starts no earlier than' })).toHaveValue('12:00');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent.patches).toHaveLength(1));
    expect((sent.patches[0].body.working_hours as unknown[])[0]).toEqual({ start: '07:00', end: '16:50' });
  });
});

describe('a practitioner’s colour', () => {
  it('is chosen in the dialog, and can go back to the automatic one', async () => {
    const sent = serve();
    const { user, dialog } = await openEditor('Pat Nurse');
    expect(within(rowOf('Pat Nurse')).getByTestId('practitioner-colour')).toHaveAccessibleName('Colour #c13b3b (automatic)');
    expect(within(dialog).getByRole('radio', { name: /^Automatic/ })).toBeChecked();
    fireEvent.input(within(dialog).getByLabelText('Colour of Pat Nurse'), { target: { value: '#00AA55' } });
    expect(within(dialog).getByRole('radio', { name: /^Chosen/ })).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(within(rowOf('Pat Nurse')).getByTestId('practitioner-colour')).toHaveAccessibleName('Colour #00aa55'));

    await user.click(screen.getByRole('button', { name: 'Edit Quinn Physio' }));
    const second = await screen.findByTestId('practitioner-edit-dialog');
    await user.click(await within(second).findByRole('radio', { name: /^Automatic/ }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(within(rowOf('Quinn Physio')).getByTestId('practitioner-colour')).toHaveAccessibleName('Colour #c13b3b (automatic)'));
    expect(sent.patches).toEqual([{ id: 7, body: { color: '#00aa55' } }, { id: 8, body: { color: null } }]);
  });
});

describe('setting hours for several practitioners', () => {
  it('opens on their shared hours, shows a day they work differently as mixed, sends only the days edited, and warns of routed visits outside', async () => {
    const sent = serve();
    const user = userEvent.setup();
    renderPage(PractitionersSettingsPage, { path: '/settings/practitioners', role: 'ADMIN' });
    await screen.findByRole('table', { name: 'Practitioners' });
    expect(screen.getByRole('button', { name: 'Set hours' })).toBeDisabled();
    await user.click(screen.getByLabelText('Select Pat Nurse'));
    await user.click(screen.getByLabelText('Select Rory Gone'));
    await user.click(screen.getByRole('button', { name: 'Set hours for 2 selected' }));

    const dialog = await screen.findByTestId('set-hours-dialog');
    expect(within(dialog).getByText(/get these hours for Pat Nurse and Rory Gone/)).toBeInTheDocument();
    // Both work Monday to Friday 07:00–17:30; only Pat works Saturdays.
    expect(within(dialog).getByLabelText('Monday start')).toHaveValue('07:00');
    expect(within(dialog).getByLabelText('Monday end')).toHaveValue('17:30');
    const saturday = within(dialog).getAllByTestId('weekday-hours')[5];
    expect(saturday).toHaveTextContent('Mixed: 08:00–12:00 for Pat Nurse; off for Rory Gone');
    expect(within(saturday).queryByRole('checkbox')).toBeNull();
    await user.click(within(dialog).getByLabelText('Works on Wednesday'));
    await user.clear(within(dialog).getByLabelText('Monday end'));
    await user.type(within(dialog).getByLabelText('Monday end'), '06:00');
    await user.click(within(dialog).getByRole('button', { name: 'Set hours' }));
    expect(within(dialog).getByLabelText('Monday end')).toHaveAccessibleDescription('Monday: the end must be after the start.');
    expect(sent.bulk).toEqual([]);

    await user.clear(within(dialog).getByLabelText('Monday end'));
    await user.type(within(dialog).getByLabelText('Monday end'), '15:00');
    await user.click(within(dialog).getByRole('button', { name: 'Set hours' }));
    expect(await screen.findByText('The working hours have been set for 2 practitioners.')).toBeInTheDocument();
    expect(await screen.findByText('Pat Nurse has 2 routed visits outside the new hours from today on: move those visits or optimise their days again.')).toBeInTheDocument();
    expect(sent.bulk).toEqual([{ practitioner_ids: [7, 9], working_hours: [{ start: '07:00', end: '15:00' }, null, null, null, null, null, null], days: [0, 2] }]);
    await waitFor(() => expect(screen.queryByTestId('set-hours-dialog')).toBeNull());
    expect(within(rowOf('Rory Gone')).getByTestId('hours')).toHaveTextContent('Mon 07:00–15:00Tue, Thu–Fri 07:00–17:30');
    // Nobody touched Saturday: Pat keeps hers.
    expect(within(rowOf('Pat Nurse')).getByTestId('hours')).toHaveTextContent('Mon 07:00–15:00Tue, Thu–Fri 07:00–17:30Sat 08:00–12:00');
    expect(within(rowOf('Quinn Physio')).getByTestId('hours')).toHaveTextContent('Mon–Fri 07:00–17:30');
    expect(screen.getByLabelText('Select Pat Nurse')).not.toBeChecked();
  });

  it('shows a refused day under that day', async () => {
    serve();
    const user = userEvent.setup();
    renderPage(PractitionersSettingsPage, { path: '/settings/practitioners', role: 'ADMIN' });
    await screen.findByRole('table', { name: 'Practitioners' });
    await user.click(screen.getByLabelText('Select every practitioner shown'));
    await user.click(screen.getByRole('button', { name: 'Set hours for 3 selected' }));
    const dialog = await screen.findByTestId('set-hours-dialog');
    await user.click(within(dialog).getByLabelText('Works on Sunday'));
    await user.click(within(dialog).getByRole('button', { name: 'Set hours' }));
    await waitFor(() => expect(within(dialog).getByLabelText('Sunday start')).toHaveAccessibleDescription('On Sunday nobody may work.'));
    expect(screen.getByTestId('set-hours-dialog')).toBeInTheDocument();
  });
});

describe('a practitioner’s leave', () => {
  type Leave = Schemas['PractitionerLeave'];
  const leave = (id: number, extra: Partial<Leave>): Leave => ({
    id, practitioner_id: 7, starts_at: '2026-12-06T14:00:00Z', ends_at: '2026-12-07T14:00:00Z', start_date: '2026-12-07', end_date: '2026-12-07',
    start_time: null, end_time: null, reason: null, source: 'manual', cliniko_block_id: null, created_by_name: 'Ada Admin', ...extra,
  });

  function serveLeave() {
    const rows: Leave[] = [
      leave(1, { reason: 'Annual leave', start_date: '2026-12-07', end_date: '2026-12-09' }),
      leave(2, { source: 'cliniko', cliniko_block_id: '1234567890123456789', start_date: '2026-12-14', end_date: '2026-12-14', start_time: '12:30', end_time: '17:00', reason: 'Afternoon off' }),
    ];
    const sent: { method: string; id?: number; body?: unknown; query?: string }[] = [];
    server.use(
      http.get('*/api/practitioner_leave', ({ request }) => {
        sent.push({ method: 'GET', query: new URL(request.url).search });
        return HttpResponse.json({ leave: rows });
      }),
      http.post('*/api/practitioner_leave', async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        sent.push({ method: 'POST', body });
        if (body.end_time === '12:00') {
          const message = 'end_time: the leave must end after it starts (12:00 is not after 13:00 on 2026-12-21).';
          return HttpResponse.json({ message, errors: [message], code: 'VALIDATION_FAILED' }, { status: 422 });
        }
        const created = leave(3, { start_date: body.start_date as string, end_date: body.end_date as string, start_time: body.start_time as string, end_time: body.end_time as string, reason: body.reason as string | null });
        rows.push(created);
        return HttpResponse.json({ leave: created }, { status: 201 });
      }),
      http.put('*/api/practitioner_leave/:id', async ({ request, params }) => {
        const body = (await request.json()) as Record<string, unknown>;
        sent.push({ method: 'PUT', id: Number(params.id), body });
        const index = rows.findIndex((row) => row.id === Number(params.id));
        rows[index] = { ...rows[index], end_date: body.end_date as string, reason: body.reason as string | null };
        return HttpResponse.json({ leave: rows[index] });
      }),
      http.delete('*/api/practitioner_leave/:id', ({ params }) => {
        sent.push({ method: 'DELETE', id: Number(params.id) });
        rows.splice(rows.findIndex((row) => row.id === Number(params.id)), 1);
        return new HttpResponse(null, { status: 204 });
      }),
    );
    return sent;
  }

  const leaveRows = (dialog: HTMLElement) => within(dialog).getAllByTestId('leave-row').map((row) => row.textContent);

  it('lists the leave, adds part of a day (the server’s refusal under the field), changes and removes leave entered here', async () => {
    serve();
    const sent = serveLeave();
    const { user, dialog } = await openEditor('Pat Nurse');
    const section = within(dialog).getByRole('region', { name: 'Leave' });
    await waitFor(() => expect(leaveRows(dialog)).toEqual([
      expect.stringMatching(/^07 Dec 2026 – 09 Dec 2026 · Annual leave/),
      '14 Dec 2026, 12:30–17:00 · Afternoon offFrom Cliniko: change it there.',
    ]));
    expect(sent[0].query).toBe('?practitioner_id=7');
    // Leave from Cliniko has no Change or Remove.
    expect(within(within(dialog).getAllByTestId('leave-row')[1]).queryByRole('button')).toBeNull();

    // Part of a day: the times are required, then the server's 422 shows under the field it names.
    await user.click(within(section).getByRole('button', { name: 'Add leave' }));
    const form = within(section).getByRole('form', { name: 'New leave' });
    await user.click(within(form).getByLabelText('Part of a day'));
    await user.click(within(form).getByRole('button', { name: 'Add' }));
    expect(form).toHaveTextContent('Enter the time the leave starts, e.g. 12:30.');
    expect(sent.filter((call) => call.method === 'POST')).toEqual([]);
    const [from, to] = [within(form).getByLabelText('From'), within(form).getByLabelText('To')];
    await user.type(from, '1300');
    await user.type(to, '1200');
    await user.type(within(form).getByLabelText('Reason (optional)'), 'Dentist');
    await user.click(within(form).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(to).toHaveAccessibleDescription('The leave must end after it starts (12:00 is not after 13:00 on 2026-12-21).'));
    await user.clear(to);
    await user.type(to, '1630');
    await user.click(within(form).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(within(section).queryByRole('form')).toBeNull());
    expect(sent.filter((call) => call.method === 'POST').at(-1)!.body).toMatchObject({
      practitioner_id: 7, start_time: '13:00', end_time: '16:30', reason: 'Dentist',
    });
    const posted = sent.filter((call) => call.method === 'POST').at(-1)!.body as { start_date: string; end_date: string };
    expect(posted.end_date).toBe(posted.start_date);
    expect(await screen.findByText('The leave has been saved.')).toBeInTheDocument();

    // Change: the whole days keep their dates unless changed; the reason goes.
    await user.click(within(section).getByRole('button', { name: 'Change leave 07 Dec 2026 – 09 Dec 2026' }));
    const changing = within(section).getByRole('form', { name: 'Change leave' });
    expect(within(changing).getByLabelText('Whole days')).toBeChecked();
    await user.clear(within(changing).getByLabelText('Reason (optional)'));
    await user.click(within(changing).getByRole('button', { name: 'Save leave' }));
    await waitFor(() => expect(sent.some((call) => call.method === 'PUT')).toBe(true));
    expect(sent.find((call) => call.method === 'PUT')).toEqual({
      method: 'PUT', id: 1, body: { practitioner_id: 7, start_date: '2026-12-07', end_date: '2026-12-09', start_time: null, end_time: null, reason: null },
    });

    // Remove, after asking.
    await waitFor(() => expect(within(section).getByRole('button', { name: 'Remove leave 07 Dec 2026 – 09 Dec 2026' })).toBeInTheDocument());
    await user.click(within(section).getByRole('button', { name: 'Remove leave 07 Dec 2026 – 09 Dec 2026' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Remove leave' });
    await user.click(within(confirm).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(sent.some((call) => call.method === 'DELETE' && call.id === 1)).toBe(true));
    expect(await screen.findByText('The leave has been removed.')).toBeInTheDocument();
    await waitFor(() => expect(leaveRows(dialog).some((row) => row?.startsWith('07 Dec 2026 –'))).toBe(false));
  });
});

