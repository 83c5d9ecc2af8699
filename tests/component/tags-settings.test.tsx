import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import TagsSettingsPage from '../../src/features/settings/tags/TagsSettingsPage';
import AppointmentTypesPage from '../../src/features/settings/appointment-types/AppointmentTypesPage';
import { findRoute } from '../../src/router/routeTable';
import { api, server, received as sent } from './support/fakeApi';
import { makeTag } from './support/fixtures';
import { makeSettings } from './support/routesFakeApi';
import { renderWithServices, useFakeApi } from './support/harness';

useFakeApi();

function serveTags() {
  let tags = [makeTag(1, 'Weekly', '#16a34a'), { id: 2, name: 'Key safe', color: '' }];
  server.use(
    http.get(api('/tags/all'), () => HttpResponse.json({ tags })),
    http.post(api('/tags'), async ({ request }) => {
      const body = (await request.json()) as { name: string; color: string };
      if (tags.some((tag) => tag.name === body.name)) return HttpResponse.json({ message: 'A tag with this name already exists.' }, { status: 409 });
      const tag = { id: 3, name: body.name, color: body.color };
      tags = [...tags, tag];
      return HttpResponse.json({ tag }, { status: 201 });
    }),
    http.put(api('/tags/:id'), async ({ params, request }) => {
      const body = (await request.json()) as { name?: string; color?: string };
      tags = tags.map((tag) => (String(tag.id) === params.id ? { ...tag, ...body } : tag));
      return HttpResponse.json({ tag: tags.find((tag) => String(tag.id) === params.id) });
    }),
    http.delete(api('/tags/:id'), ({ params }) => {
      tags = tags.filter((tag) => String(tag.id) !== params.id);
      return new HttpResponse(null, { status: 204 });
    }),
  );
}

const renderTags = () => renderWithServices(<TagsSettingsPage route={findRoute('/settings/tags')!} />);

describe('tags settings', () => {
  it('lists tags, showing black for a tag without a colour', async () => {
    serveTags();
    const view = renderTags();
    const rows = await screen.findAllByTestId('tag-row');
    expect(rows).toHaveLength(2);
    expect(screen.getByLabelText('Colour of Weekly')).toHaveValue('#16a34a');
    expect(screen.getByLabelText('Colour of Key safe')).toHaveValue('#000000');
    view.unmount();
  });

  it('creates a tag, and shows the server message for a duplicate', async () => {
    serveTags();
    const user = userEvent.setup();
    const view = renderTags();
    await screen.findAllByTestId('tag-row');
    await user.type(screen.getByLabelText('New tag name'), 'Hoist');
    fireEvent.input(screen.getByLabelText('New tag colour'), { target: { value: '#9333ea' } });
    await user.click(screen.getByRole('button', { name: 'Add tag' }));
    expect(await screen.findByText('The tag has been created.')).toBeInTheDocument();
    expect(sent.find((request) => request.method === 'POST')?.body).toEqual({ name: 'Hoist', color: '#9333ea' });
    await waitFor(() => expect(screen.getAllByTestId('tag-row')).toHaveLength(3));

    await user.type(screen.getByLabelText('New tag name'), 'Weekly');
    await user.click(screen.getByRole('button', { name: 'Add tag' }));
    expect(await screen.findByText('A tag with this name already exists.')).toBeInTheDocument();
    view.unmount();
  });

  it('renames and recolours a tag, sending only what changed', async () => {
    serveTags();
    const user = userEvent.setup();
    const view = renderTags();
    await screen.findAllByTestId('tag-row');
    const name = screen.getByLabelText('Name of Weekly');
    await user.clear(name);
    await user.type(name, 'Fortnightly');
    await user.click(within(screen.getByRole('form', { name: 'Tag Weekly' })).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The tag has been updated.')).toBeInTheDocument();
    expect(sent.find((request) => request.method === 'PUT')).toMatchObject({ path: '/api/tags/1', body: { name: 'Fortnightly' } });

    fireEvent.input(screen.getByLabelText('Colour of Key safe'), { target: { value: '#dc2626' } });
    await user.click(within(screen.getByRole('form', { name: 'Tag Key safe' })).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent.filter((request) => request.method === 'PUT').at(-1)).toMatchObject({ path: '/api/tags/2', body: { color: '#dc2626' } }));
    view.unmount();
  });

  it('deletes a tag only after confirmation', async () => {
    serveTags();
    const user = userEvent.setup();
    const view = renderTags();
    await screen.findAllByTestId('tag-row');
    await user.click(within(screen.getByRole('form', { name: 'Tag Key safe' })).getByRole('button', { name: 'Delete' }));
    const question = await screen.findByRole('alertdialog');
    expect(question).toHaveTextContent('Delete the tag "Key safe"? It will be removed from every client.');
    await user.click(within(question).getByRole('button', { name: 'Cancel' }));
    expect(sent.some((request) => request.method === 'DELETE')).toBe(false);

    await user.click(within(screen.getByRole('form', { name: 'Tag Key safe' })).getByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('The tag has been deleted.')).toBeInTheDocument();
    expect(sent.filter((request) => request.method === 'DELETE').map((request) => request.path)).toEqual(['/api/tags/2']);
    await waitFor(() => expect(screen.getAllByTestId('tag-row')).toHaveLength(1));
    view.unmount();
  });
});

describe('appointment types settings', () => {
  const TYPES = [
    { id: 3, name: 'Home visit', duration: 60, color: '#0284c7', tolerance_minutes: null, same_type_gap_minutes: null },
    { id: 4, name: 'Medication check', duration: 30, color: null, tolerance_minutes: 15, same_type_gap_minutes: 240, needs_two_practitioners: false },
    { id: 5, name: 'Hoist transfer', duration: 45, color: null, tolerance_minutes: null, same_type_gap_minutes: null, needs_two_practitioners: true },
  ];
  const serveTypes = () => server.use(
    http.get(api('/appointment_types/all'), () => HttpResponse.json({ appointment_types: TYPES })),
    http.get(api('/optimization_settings'), () => HttpResponse.json({ optimization_settings: makeSettings() })),
  );
  const puts = () => sent.filter((request) => request.method === 'PUT').map((request) => [request.path, request.body]);

  it('lists types with duration, colour and their rules, read-only for a regular user', async () => {
    serveTypes();
    const view = renderWithServices(<AppointmentTypesPage route={findRoute('/settings/appointment-types')!} />, { role: 'REGULAR_USER' });
    const rows = await screen.findAllByTestId('appointment-type-row');
    expect(rows[0]).toHaveTextContent('Home visit60 min');
    expect(within(rows[1]).getByRole('img')).toHaveAttribute('aria-label', 'Colour #000000');
    // The business's tolerance (30 min in the optimisation settings) where the type has none of its own.
    await waitFor(() => expect(within(rows[0]).getByTestId('type-tolerance')).toHaveTextContent('Business default (30 min)'));
    expect(within(rows[0]).getByTestId('type-gap')).toHaveTextContent('None');
    expect(within(rows[1]).getByTestId('type-tolerance')).toHaveTextContent('15 min');
    expect(within(rows[1]).getByTestId('type-gap')).toHaveTextContent('4 h');
    // "Needs two practitioners:" is the phone's label beside the value.
    expect(rows.map((row) => within(row).getByTestId('type-two-practitioners').textContent)).toEqual(['No', 'No', 'Yes'].map((value) => `Needs two practitioners:${value}`));
    expect(screen.getByRole('columnheader', { name: 'Hours since the client’s last visit of this type' })).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('spinbutton')).toBeNull();
    view.unmount();
  });

  it('lets an admin change a duration', async () => {
    serveTypes();
    server.use(http.put(api('/appointment_types/3'), () => HttpResponse.json({ appointment_type: { ...TYPES[0], duration: 45 } })));
    const user = userEvent.setup();
    const view = renderWithServices(<AppointmentTypesPage route={findRoute('/settings/appointment-types')!} />);
    const duration = await screen.findByLabelText('Duration of Home visit in minutes');
    await user.clear(duration);
    await user.type(duration, '45');
    await user.click(within(screen.getAllByTestId('appointment-type-row')[0]).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The appointment type has been updated.')).toBeInTheDocument();
    expect(sent.find((request) => request.method === 'PUT')?.body).toEqual({ duration: 45 });
    view.unmount();
  });

  it('lets an admin give a type its own tolerance and a same-type gap in hours, or hand them back to the defaults', async () => {
    serveTypes();
    server.use(
      http.put(api('/appointment_types/:id'), async ({ params, request }) =>
        HttpResponse.json({ appointment_type: { ...TYPES.find((type) => String(type.id) === params.id)!, ...((await request.json()) as object) } })),
    );
    const user = userEvent.setup();
    const view = renderWithServices(<AppointmentTypesPage route={findRoute('/settings/appointment-types')!} />);
    const tolerance = await screen.findByLabelText('Tolerance of Home visit in minutes');
    const gap = screen.getByLabelText('Hours since the client’s last visit of Home visit');
    expect(tolerance).toHaveValue(null);
    await waitFor(() => expect(tolerance).toHaveAccessibleDescription('Empty: the business default (30 min).'));
    expect(screen.getByLabelText('Hours since the client’s last visit of Medication check')).toHaveValue(4);
    const [homeVisit, medication] = screen.getAllByTestId('appointment-type-row');

    await user.type(tolerance, '721');
    await user.click(within(homeVisit).getByRole('button', { name: 'Save' }));
    expect(within(homeVisit).getByRole('alert')).toHaveTextContent('Tolerance must be empty (the business’s) or a whole number of minutes from 0 to 720.');
    expect(puts()).toEqual([]);

    await user.clear(tolerance);
    await user.type(tolerance, '45');
    await user.type(gap, '1.5');
    await user.click(within(homeVisit).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The appointment type has been updated.')).toBeInTheDocument();

    await user.clear(screen.getByLabelText('Tolerance of Medication check in minutes'));
    await user.clear(screen.getByLabelText('Hours since the client’s last visit of Medication check'));
    await user.click(within(medication).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts()).toHaveLength(2));
    expect(puts()).toEqual([
      ['/api/appointment_types/3', { tolerance_minutes: 45, same_type_gap_minutes: 90 }],
      ['/api/appointment_types/4', { tolerance_minutes: null, same_type_gap_minutes: null }],
    ]);
    view.unmount();
  });

  it('lets an admin give a type its own price of moving a visit from its agreed time, shown to others', async () => {
    serveTypes();
    server.use(http.put(api('/appointment_types/:id'), async ({ params, request }) =>
      HttpResponse.json({ appointment_type: { ...TYPES.find((type) => String(type.id) === params.id)!, ...((await request.json()) as object) } })));
    const user = userEvent.setup();
    const view = renderWithServices(<AppointmentTypesPage route={findRoute('/settings/appointment-types')!} />);
    const price = await screen.findByLabelText('Price of moving a visit of Medication check from its agreed time');
    expect(price).toHaveValue(null);
    const [, medication] = screen.getAllByTestId('appointment-type-row');
    await user.type(price, '101');
    await user.click(within(medication).getByRole('button', { name: 'Save' }));
    expect(within(medication).getByRole('alert')).toHaveTextContent('Price of a move must be empty (the business’s) or a number from 0 to 100.');
    expect(puts()).toEqual([]);
    await user.clear(price);
    await user.type(price, '2');
    await user.click(within(medication).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts()).toEqual([['/api/appointment_types/4', { move_price: 2 }]]));
    view.unmount();

    server.use(http.get(api('/appointment_types/all'), () => HttpResponse.json({ appointment_types: [{ ...TYPES[1], move_price: 2 }, { ...TYPES[0], move_price: null }] })));
    const read = renderWithServices(<AppointmentTypesPage route={findRoute('/settings/appointment-types')!} />, { role: 'REGULAR_USER' });
    const rows = await screen.findAllByTestId('appointment-type-row');
    expect(rows.map((row) => within(row).getByTestId('type-move-price').textContent)).toEqual(['Price of a move:2 a minute', 'Price of a move:Business default']);
    read.unmount();
  });

  it('lets an admin mark a type as needing two practitioners, or unmark it', async () => {
    serveTypes();
    server.use(http.put(api('/appointment_types/:id'), async ({ params, request }) =>
      HttpResponse.json({ appointment_type: { ...TYPES.find((type) => String(type.id) === params.id)!, ...((await request.json()) as object) } })));
    const user = userEvent.setup();
    const view = renderWithServices(<AppointmentTypesPage route={findRoute('/settings/appointment-types')!} />);
    const homeVisit = await screen.findByRole('checkbox', { name: 'Needs two practitioners for Home visit' });
    const hoist = screen.getByRole('checkbox', { name: 'Needs two practitioners for Hoist transfer' });
    expect(homeVisit).not.toBeChecked();
    expect(hoist).toBeChecked();
    const [homeRow, , hoistRow] = screen.getAllByTestId('appointment-type-row');
    await user.click(homeVisit);
    await user.click(within(homeRow).getByRole('button', { name: 'Save' }));
    await user.click(hoist);
    await user.click(within(hoistRow).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts()).toHaveLength(2));
    expect(puts()).toEqual([
      ['/api/appointment_types/3', { needs_two_practitioners: true }],
      ['/api/appointment_types/5', { needs_two_practitioners: false }],
    ]);
    view.unmount();
  });
});
