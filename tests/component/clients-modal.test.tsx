import { describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { ClientDetailsModal } from '../../src/features/clients/ClientDetailsModal';
import { api, server, received as sent } from './support/fakeApi';
import { makeClient, makeTag } from './support/fixtures';
import { renderWithServices, useFakeApi } from './support/harness';

useFakeApi();

const TAGS = [makeTag(1, 'Weekly'), makeTag(2, 'Dog on site', '#dc2626')];

const PRACTITIONERS = [
  { id: 7, full_name: 'Pat Nguyen', active: true },
  { id: 8, full_name: 'Sam Lee', active: true },
  { id: 9, full_name: 'Jo Park', active: true },
  { id: 10, full_name: 'Old Staff', active: false },
];

function serveClient(client = makeClient({ tags: [TAGS[0]] })) {
  server.use(
    http.get(api('/clients/11'), () => HttpResponse.json({ client })),
    http.get(api('/tags/all'), () => HttpResponse.json({ tags: TAGS })),
    http.get(api('/practitioners/all'), () => HttpResponse.json({ practitioners: PRACTITIONERS })),
  );
}

describe('client details modal', () => {
  it('shows the client, a map at their location and their tags', async () => {
    serveClient();
    const view = renderWithServices(<ClientDetailsModal clientId={11} onClose={() => {}} />);
    const modal = await screen.findByTestId('client-details-modal');
    expect(await within(modal).findByRole('heading', { name: 'Margaret Jones' })).toBeInTheDocument();
    expect(within(modal).getByText('0400 000 111')).toBeInTheDocument();
    expect(within(modal).getByText('margaret@example.test')).toBeInTheDocument();
    expect(within(modal).getByText('Australia/Brisbane')).toBeInTheDocument();
    expect(await within(modal).findByTestId('svg-map')).toHaveAttribute('data-marker-count', '1');
    expect(within(modal).queryByText('Map unavailable (location is missing)')).toBeNull();
    expect(await within(modal).findByLabelText('Weekly')).toBeChecked();
    expect(within(modal).getByLabelText('Dog on site')).not.toBeChecked();
    view.unmount();
  });

  it('saves tags and says so', async () => {
    serveClient();
    server.use(http.put(api('/clients/11/update_tags'), () => HttpResponse.json({ tags: TAGS })));
    const user = userEvent.setup();
    const view = renderWithServices(<ClientDetailsModal clientId={11} onClose={() => {}} />);
    await user.click(await screen.findByLabelText('Dog on site'));
    await user.click(screen.getByRole('button', { name: 'Save tags' }));
    expect(await screen.findByText('Tags have been updated.')).toBeInTheDocument();
    expect(sent.find((request) => request.method === 'PUT')?.body).toEqual({ tag_ids: [1, 2] });
    view.unmount();
  });

  it('shows the server message when tags cannot be saved, else the generic one', async () => {
    serveClient();
    server.use(http.put(api('/clients/11/update_tags'), () => HttpResponse.json({ message: 'Unknown tag id 9' }, { status: 422 })));
    const user = userEvent.setup();
    const view = renderWithServices(<ClientDetailsModal clientId={11} onClose={() => {}} />);
    await user.click(await screen.findByRole('button', { name: 'Save tags' }));
    expect(await screen.findByText('Unknown tag id 9')).toBeInTheDocument();
    view.unmount();
  });

  // Custom availability without any day (its problem told, Save disabled until a day is ticked) is walked by
  // tests/model/availability-editor.model.test.tsx; this one also checks the field's description and what is sent.
  it('refuses a day that is neither all day nor given a slot, beside that day, until it is fixed', async () => {
    serveClient(makeClient({ availability: [{ dow: 1 }] }));
    server.use(http.put(api('/clients/11/update_availability'), async ({ request }) => HttpResponse.json({ client: makeClient(await request.json() as object) })));
    const user = userEvent.setup();
    const view = renderWithServices(<ClientDetailsModal clientId={11} onClose={() => {}} />);
    const editor = await screen.findByTestId('availability-editor');
    await user.click(within(editor).getByLabelText('Monday all day'));
    const monday = within(editor).getByTestId('availability-day-1');
    expect(monday).toHaveTextContent('Choose at least one time slot for Monday, or tick All day.');
    expect(within(editor).getByLabelText('Monday 09:00-12:00')).toHaveAccessibleDescription('Choose at least one time slot for Monday, or tick All day.');
    const save = within(editor).getByRole('button', { name: 'Save availability' });
    expect(save).toBeDisabled();
    await user.click(save);
    expect(sent.some((request) => request.method === 'PUT')).toBe(false);
    expect(screen.queryByText('The availability has been updated.')).toBeNull();

    await user.click(within(editor).getByLabelText('Monday 09:00-12:00'));
    expect(within(editor).queryByTestId('availability-problem')).toBeNull();
    await user.click(save);
    expect(await screen.findByText('The availability has been updated.')).toBeInTheDocument();
    expect(sent.find((request) => request.method === 'PUT')?.body).toEqual({ availability: [{ dow: 1, hours: ['09:00-12:00'] }] });
    view.unmount();
  });

  it('asks before sending an availability request, then confirms it was scheduled', async () => {
    serveClient();
    server.use(http.post(api('/clients/11/send_availability_request'), () => HttpResponse.json({ message: 'queued' }, { status: 202 })));
    const user = userEvent.setup();
    const view = renderWithServices(<ClientDetailsModal clientId={11} onClose={() => {}} />);
    await user.click(await screen.findByRole('button', { name: 'Send availability request' }));
    const question = await screen.findByRole('alertdialog');
    expect(question).toHaveTextContent('Are you sure you want to send an availability request email to this client?');
    expect(question).toHaveTextContent('It will be sent to Margaret Jones at margaret@example.test.');
    expect(sent.some((request) => request.method === 'POST')).toBe(false);
    await user.click(within(question).getByRole('button', { name: 'Send request' }));
    expect(await screen.findByText('The availability request has been scheduled to send to client.')).toBeInTheDocument();
    expect(sent.filter((request) => request.method === 'POST').map((request) => request.path)).toEqual(['/api/clients/11/send_availability_request']);
    view.unmount();
  });

  it('does not offer an availability request to a client without an email address, and says why', async () => {
    serveClient(makeClient({ email: null }));
    const user = userEvent.setup();
    const view = renderWithServices(<ClientDetailsModal clientId={11} onClose={() => {}} />);
    const button = await screen.findByRole('button', { name: 'Send availability request' });
    expect(button).toBeDisabled();
    expect(button).toHaveAccessibleDescription('No email address for this client');
    expect(screen.getByText('No email address for this client')).toBeVisible();
    await user.click(button);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(sent.some((request) => request.method === 'POST')).toBe(false);
    view.unmount();
  });

  it('says it could not send the availability request when the request fails without a message', async () => {
    serveClient();
    server.use(http.post(api('/clients/11/send_availability_request'), () => new HttpResponse(null, { status: 500 })));
    const user = userEvent.setup();
    const view = renderWithServices(<ClientDetailsModal clientId={11} onClose={() => {}} />);
    await user.click(await screen.findByRole('button', { name: 'Send availability request' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Send request' }));
    expect(await screen.findByText('An error has occurred. Could not send availability request.')).toBeInTheDocument();
    view.unmount();
  });

  it('turns the client\'s appointment reminders off and on again with the switch, saying so', async () => {
    serveClient();
    server.use(http.put(api('/clients/11/update_reminders'), async ({ request }) =>
      HttpResponse.json({ client: makeClient({ tags: [TAGS[0]], ...(await request.json() as object) }) })));
    const user = userEvent.setup();
    const view = renderWithServices(<ClientDetailsModal clientId={11} onClose={() => {}} />);
    const reminders = await screen.findByRole('switch', { name: 'Send appointment reminders' });
    expect(reminders).toBeChecked();
    await user.click(reminders);
    expect(await screen.findByText('Appointment reminders turned off for this client.')).toBeInTheDocument();
    expect(sent.filter((request) => request.method === 'PUT').map((request) => request.body)).toEqual([{ reminders_enabled: false }]);
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Send appointment reminders' })).not.toBeChecked());
    await user.click(screen.getByRole('switch', { name: 'Send appointment reminders' }));
    expect(await screen.findByText('Appointment reminders turned on for this client.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Send appointment reminders' })).toBeChecked());
    view.unmount();
  });

  it('keeps the reminders switch as it was and shows the server message when the change is refused', async () => {
    serveClient(makeClient({ reminders_enabled: false, email: null, phone_numbers: [] }));
    server.use(http.put(api('/clients/11/update_reminders'), () => HttpResponse.json({ message: 'Client not found.' }, { status: 404 })));
    const user = userEvent.setup();
    const view = renderWithServices(<ClientDetailsModal clientId={11} onClose={() => {}} />);
    const reminders = await screen.findByRole('switch', { name: 'Send appointment reminders' });
    expect(reminders).not.toBeChecked();
    expect(reminders).toHaveAccessibleDescription('This client has no email address or mobile number, so no reminder can reach them.');
    await user.click(reminders);
    expect(await screen.findByText('Client not found.')).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Send appointment reminders' })).not.toBeChecked();
    view.unmount();
  });

  it('reports a client that cannot be loaded', async () => {
    server.use(http.get(api('/clients/11'), () => new HttpResponse(null, { status: 500 })), http.get(api('/tags/all'), () => HttpResponse.json({ tags: [] })));
    const view = renderWithServices(<ClientDetailsModal clientId={11} onClose={() => {}} />);
    const modal = await screen.findByTestId('client-details-modal');
    await waitFor(() => expect(within(modal).getByRole('alert')).toHaveTextContent('An error has occurred while fetching client details'), { timeout: 5000 });
    // Said once, in the modal: no toast repeating it over the page.
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.getAllByText('An error has occurred while fetching client details')).toHaveLength(1);
    view.unmount();
  });

  it('shows the server message first when the client is not found', async () => {
    server.use(http.get(api('/clients/11'), () => HttpResponse.json({ message: 'Client not found' }, { status: 404 })), http.get(api('/tags/all'), () => HttpResponse.json({ tags: [] })));
    const view = renderWithServices(<ClientDetailsModal clientId={11} onClose={() => {}} />);
    const modal = await screen.findByTestId('client-details-modal');
    await waitFor(() => expect(within(modal).getByRole('alert')).toHaveTextContent('Client not found'), { timeout: 5000 });
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.getAllByText('Client not found')).toHaveLength(1);
    view.unmount();
  });

  describe('preferred and excluded practitioners', () => {
    it('shows them, chooses by keyboard among the active practitioners not in the other list, and saves', async () => {
      serveClient(makeClient({ preferred_practitioner_ids: [7] }));
      server.use(http.put(api('/clients/11/update_practitioners'), async ({ request }) =>
        HttpResponse.json({ client: makeClient(await request.json() as object) })));
      const user = userEvent.setup();
      const view = renderWithServices(<ClientDetailsModal clientId={11} onClose={() => {}} />);
      const form = await screen.findByRole('form', { name: 'Practitioners' });
      const preferred = within(await within(form).findByTestId('client-preferred-practitioners')).getByRole('button');
      const excluded = within(within(form).getByTestId('client-excluded-practitioners')).getByRole('button');
      await waitFor(() => expect(preferred).toHaveTextContent('Pat Nguyen'));
      expect(excluded).toHaveTextContent('No one excluded');
      expect(within(form).getByText('Never given Margaret Jones’s visits, by an optimisation or by hand.')).toBeInTheDocument();

      // Keyboard only: open the Excluded list, move to Sam Lee, choose him, close.
      act(() => excluded.focus());
      await user.keyboard('{ArrowDown}');
      const options = within(await screen.findByRole('listbox'));
      expect(options.getAllByRole('option').map((option) => option.textContent)).toEqual(['Sam Lee', 'Jo Park']);
      await user.keyboard('{Home}');
      await waitFor(() => expect(options.getByRole('option', { name: 'Sam Lee' })).toHaveAttribute('data-focus'));
      await user.keyboard('{Enter}');
      await user.keyboard('{Escape}');
      await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
      expect(excluded).toHaveTextContent('Sam Lee');
      await user.tab();
      expect(screen.getByRole('button', { name: 'Save practitioners' })).toHaveFocus();
      await user.keyboard('{Enter}');

      expect(await screen.findByText('Preferred and excluded practitioners have been updated.')).toBeInTheDocument();
      expect(sent.find((request) => request.method === 'PUT')).toMatchObject({
        path: '/api/clients/11/update_practitioners', body: { preferred_practitioner_ids: [7], excluded_practitioner_ids: [8] },
      });
      view.unmount();
    });

    it('says why they could not be saved and keeps the choice', async () => {
      serveClient();
      const refusal = 'excluded_practitioner_ids: Pat Nguyen cannot be both preferred and excluded for Margaret Jones; choose one.';
      server.use(http.put(api('/clients/11/update_practitioners'), () => HttpResponse.json({ message: refusal }, { status: 422 })));
      const user = userEvent.setup();
      const view = renderWithServices(<ClientDetailsModal clientId={11} onClose={() => {}} />);
      const excluded = within(await screen.findByTestId('client-excluded-practitioners')).getByRole('button');
      await user.click(excluded);
      await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'Jo Park' }));
      await user.keyboard('{Escape}');
      await user.click(screen.getByRole('button', { name: 'Save practitioners' }));
      expect(await screen.findByText(refusal)).toBeInTheDocument();
      expect(excluded).toHaveTextContent('Jo Park');
      view.unmount();
    });

    it('is not offered to a practitioner account', async () => {
      serveClient();
      const view = renderWithServices(<ClientDetailsModal clientId={11} onClose={() => {}} />, { role: 'PRACTITIONER' });
      expect(await screen.findByRole('form', { name: 'Tags' })).toBeInTheDocument();
      expect(screen.queryByRole('form', { name: 'Practitioners' })).toBeNull();
      view.unmount();
    });

    it('asks before discarding unsaved practitioners on closing', async () => {
      serveClient();
      const onClose = vi.fn();
      const user = userEvent.setup();
      const view = renderWithServices(<ClientDetailsModal clientId={11} onClose={onClose} />);
      await user.click(within(await screen.findByTestId('client-preferred-practitioners')).getByRole('button'));
      await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'Jo Park' }));
      await user.keyboard('{Escape}');
      await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
      await user.keyboard('{Escape}');
      const question = await screen.findByRole('alertdialog', { name: 'Discard unsaved changes?' });
      expect(question).toHaveTextContent('Your changes to practitioners have not been saved.');
      expect(onClose).not.toHaveBeenCalled();
      view.unmount();
    });
  });

  describe('closing with unsaved edits', () => {
    it('closes at once when nothing changed, or when the changes were saved', async () => {
      serveClient();
      server.use(http.put(api('/clients/11/update_tags'), () => HttpResponse.json({ tags: TAGS })));
      const onClose = vi.fn();
      const user = userEvent.setup();
      const view = renderWithServices(<ClientDetailsModal clientId={11} onClose={onClose} />);
      const modal = await screen.findByTestId('client-details-modal');
      await within(modal).findByLabelText('Dog on site');
      await user.click(within(modal).getByRole('button', { name: 'Close' }));
      expect(onClose).toHaveBeenCalledTimes(1);

      await user.click(within(modal).getByLabelText('Dog on site'));
      await user.click(within(modal).getByRole('button', { name: 'Save tags' }));
      await screen.findByText('Tags have been updated.');
      await user.keyboard('{Escape}');
      expect(screen.queryByRole('alertdialog')).toBeNull();
      expect(onClose).toHaveBeenCalledTimes(2);
      view.unmount();
    });

    it('asks before discarding tag edits on Close, and keeps them when the user keeps editing', async () => {
      serveClient();
      const onClose = vi.fn();
      const user = userEvent.setup();
      const view = renderWithServices(<ClientDetailsModal clientId={11} onClose={onClose} />);
      const modal = await screen.findByTestId('client-details-modal');
      await user.click(await within(modal).findByLabelText('Dog on site'));
      await user.click(within(modal).getByRole('button', { name: 'Close' }));
      const question = await screen.findByRole('alertdialog', { name: 'Discard unsaved changes?' });
      expect(question).toHaveTextContent('Your changes to tags have not been saved.');
      expect(onClose).not.toHaveBeenCalled();
      await user.click(within(question).getByRole('button', { name: 'Keep editing' }));
      await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
      expect(within(modal).getByLabelText('Dog on site')).toBeChecked();
      expect(onClose).not.toHaveBeenCalled();

      await user.click(within(modal).getByRole('button', { name: 'Close dialog' }));
      await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Discard changes' }));
      expect(onClose).toHaveBeenCalledTimes(1);
      expect(sent.some((request) => request.method === 'PUT')).toBe(false);
      view.unmount();
    });

    it('asks before discarding availability edits on Escape and on a click outside', async () => {
      serveClient();
      const onClose = vi.fn();
      const user = userEvent.setup();
      const view = renderWithServices(<ClientDetailsModal clientId={11} onClose={onClose} />);
      const editor = await screen.findByTestId('availability-editor');
      await user.click(within(editor).getByLabelText('Custom availability'));
      await user.click(within(editor).getByLabelText('Tuesday'));

      await user.keyboard('{Escape}');
      const question = await screen.findByRole('alertdialog', { name: 'Discard unsaved changes?' });
      expect(question).toHaveTextContent('Your changes to availability have not been saved.');
      // Escape on the question keeps editing
      await user.keyboard('{Escape}');
      await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
      expect(onClose).not.toHaveBeenCalled();
      expect(within(editor).getByLabelText('Tuesday')).toBeChecked();

      await user.click(document.body);
      expect(await screen.findByRole('alertdialog', { name: 'Discard unsaved changes?' })).toBeInTheDocument();
      expect(onClose).not.toHaveBeenCalled();
      view.unmount();
    });
  });
});
