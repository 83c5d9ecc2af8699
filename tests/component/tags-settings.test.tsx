import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import TagsSettingsPage from '../../src/features/settings/tags/TagsSettingsPage';
import AppointmentTypesPage from '../../src/features/settings/appointment-types/AppointmentTypesPage';
import { findRoute } from '../../src/routes/routeTable';
import { api, server, received as sent } from './support/fakeApi';
import { makeTag } from './support/fixtures';
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
  const TYPES = [{ id: 3, name: 'Home visit', duration: 60, color: '#0284c7' }, { id: 4, name: 'Review', duration: 30, color: null }];

  it('lists types with duration and colour, read-only for a regular user', async () => {
    server.use(http.get(api('/appointment_types/all'), () => HttpResponse.json({ appointment_types: TYPES })));
    const view = renderWithServices(<AppointmentTypesPage route={findRoute('/settings/appointment-types')!} />, { role: 'REGULAR_USER' });
    const rows = await screen.findAllByTestId('appointment-type-row');
    expect(rows[0]).toHaveTextContent('Home visit60 min');
    expect(within(rows[1]).getByRole('img')).toHaveAttribute('aria-label', 'Colour #000000');
    expect(screen.queryByRole('textbox')).toBeNull();
    view.unmount();
  });

  it('lets an admin change a duration', async () => {
    server.use(
      http.get(api('/appointment_types/all'), () => HttpResponse.json({ appointment_types: TYPES })),
      http.put(api('/appointment_types/3'), () => HttpResponse.json({ appointment_type: { ...TYPES[0], duration: 45 } })),
    );
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
});
