import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import ClientsPage from '../../src/features/clients/ClientsPage';
import { findRoute } from '../../src/router/routeTable';
import { api, server, received as sent } from './support/fakeApi';
import { makeClient, makeTag } from './support/fixtures';
import { renderWithServices, useFakeApi } from './support/harness';

useFakeApi();

const WEEKLY = makeTag(1, 'Weekly', '#16a34a');
const NO_COLOUR = { id: 2, name: 'Key safe', color: '' };

function listItem(id: number, name: string, overrides: Record<string, unknown> = {}) {
  const [first_name, last_name] = name.split(' ');
  return { id, full_name: name, first_name, last_name, suburb: 'Toowong', phone: '0400 000 000', email: null, tags: [], has_custom_availability: false, has_address: true, ...overrides };
}

function serveClients(total = 23) {
  server.use(
    http.get(api('/tags/all'), () => HttpResponse.json({ tags: [WEEKLY, NO_COLOUR] })),
    http.get(api('/clients'), ({ request }) => {
      const url = new URL(request.url);
      const perPage = Number(url.searchParams.get('per_page') ?? 10);
      const page = Number(url.searchParams.get('page') ?? 1);
      const count = Math.max(0, Math.min(perPage, total - (page - 1) * perPage));
      const clients = Array.from({ length: count }, (_, index) => {
        const id = (page - 1) * perPage + index + 1;
        return id === 1
          ? listItem(1, 'Margaret Jones', { tags: [WEEKLY, NO_COLOUR], has_custom_availability: true, has_address: false, suburb: null, email: 'mj@example.test' })
          : listItem(id, `Client ${id}`);
      });
      return HttpResponse.json({ clients, meta: { page, per_page: perPage, total } });
    }),
    http.get(api('/clients/1'), () => HttpResponse.json({ client: makeClient({ id: 1, lat: null, lng: null, tags: [WEEKLY] }) })),
  );
}

const listRequests = () => sent.filter((request) => request.method === 'GET' && request.path === '/api/clients').map((request) => new URLSearchParams(request.search));

describe('clients list', () => {
  it('shows a page of clients with tags, availability and address columns', async () => {
    serveClients();
    const view = renderWithServices(<ClientsPage route={findRoute('/clients')!} />);
    const rows = await screen.findAllByTestId('client-row');
    expect(rows).toHaveLength(10);
    const first = rows[0];
    expect(within(first).getByText('Margaret Jones')).toBeInTheDocument();
    expect(within(first).getByText('Weekly')).toBeInTheDocument();
    expect(within(first).getByText('Key safe')).toBeInTheDocument();
    // Custom availability yes, address no.
    const cells = within(first).getAllByRole('cell');
    expect(cells.map((cell) => cell.textContent)).toEqual(['Margaret Jones', '—', '0400 000 000', 'mj@example.test', 'WeeklyKey safe', 'Yes', 'No']);
    // A tag without a colour is black.
    const dot = within(first).getByText('Key safe').querySelector('span');
    expect(dot).toHaveStyle({ backgroundColor: '#000000' });
    expect(screen.getByTestId('pagination-summary')).toHaveTextContent('1–10 of 23');
    expect(listRequests()[0].get('per_page')).toBe('10');
    expect(listRequests()[0].get('sort')).toBe('name');
    view.unmount();
  });

  it('pages, changes page size and sorts on the server', async () => {
    serveClients();
    const user = userEvent.setup();
    const view = renderWithServices(<ClientsPage route={findRoute('/clients')!} />);
    await screen.findAllByTestId('client-row');

    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(screen.getByTestId('pagination-summary')).toHaveTextContent('11–20 of 23'));
    expect(listRequests().at(-1)!.get('page')).toBe('2');

    expect([...screen.getByLabelText('Rows per page').querySelectorAll('option')].map((option) => option.textContent)).toEqual(['5', '10', '20', '50']);
    await user.selectOptions(screen.getByLabelText('Rows per page'), '20');
    await waitFor(() => expect(screen.getAllByTestId('client-row')).toHaveLength(20));
    expect(listRequests().at(-1)!.get('page')).toBe('1');
    expect(listRequests().at(-1)!.get('per_page')).toBe('20');

    await user.click(screen.getByRole('button', { name: /Suburb/ }));
    await waitFor(() => expect(listRequests().at(-1)!.get('sort')).toBe('suburb'));
    expect(listRequests().at(-1)!.get('direction')).toBe('asc');
    expect(screen.getByRole('columnheader', { name: /Suburb/ })).toHaveAttribute('aria-sort', 'ascending');
    await user.click(screen.getByRole('button', { name: /Suburb/ }));
    await waitFor(() => expect(listRequests().at(-1)!.get('direction')).toBe('desc'));
    view.unmount();
  });

  it('searches once typing pauses and filters by tag and missing address', async () => {
    serveClients();
    const user = userEvent.setup();
    const view = renderWithServices(<ClientsPage route={findRoute('/clients')!} />);
    await screen.findAllByTestId('client-row');
    const before = listRequests().length;

    await user.type(screen.getByLabelText('Search'), 'marg');
    await waitFor(() => expect(listRequests().at(-1)!.get('q')).toBe('marg'));
    // Debounced: one request for the whole word, not one per key.
    expect(listRequests().slice(before).filter((params) => params.has('q'))).toHaveLength(1);

    await user.selectOptions(screen.getByLabelText('Tag'), 'Weekly');
    await waitFor(() => expect(listRequests().at(-1)!.get('tag_id')).toBe('1'));
    await user.click(screen.getByLabelText('Missing address'));
    await waitFor(() => expect(listRequests().at(-1)!.get('missing_address')).toBe('true'));
    view.unmount();
  });

  it('keeps the search in view and the tag and address filters behind a Filters button that counts the active ones', async () => {
    window.history.replaceState(null, '', '/clients?tag=1&missing_address=true');
    serveClients();
    const user = userEvent.setup();
    const view = renderWithServices(<ClientsPage route={findRoute('/clients')!} />);
    await screen.findAllByTestId('client-row');
    const toggle = screen.getByRole('button', { name: /^Filters/ });
    expect(within(toggle).getByTestId('active-filter-count')).toHaveTextContent('2');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    const panel = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    expect(within(panel).getByLabelText('Tag')).toBeInTheDocument();
    expect(within(panel).getByLabelText('Missing address')).toBeInTheDocument();
    expect(within(panel).queryByLabelText('Search')).toBeNull();
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await user.click(within(panel).getByLabelText('Missing address'));
    await waitFor(() => expect(within(toggle).getByTestId('active-filter-count')).toHaveTextContent('1'));
    view.unmount();
    window.history.replaceState(null, '', '/clients');
  });

  it('shows a long email address whole in its title rather than breaking it over lines', async () => {
    serveClients();
    const view = renderWithServices(<ClientsPage route={findRoute('/clients')!} />);
    const [first] = await screen.findAllByTestId('client-row');
    expect(within(first).getByText('mj@example.test')).toHaveAttribute('title', 'mj@example.test');
    view.unmount();
  });

  it('opens the client details modal from a row', async () => {
    serveClients();
    const user = userEvent.setup();
    const view = renderWithServices(<ClientsPage route={findRoute('/clients')!} />);
    const rows = await screen.findAllByTestId('client-row');
    await user.click(rows[0]);
    const modal = await screen.findByTestId('client-details-modal');
    expect(await within(modal).findByText('31 Dec 1941')).toBeInTheDocument();
    expect(within(modal).getByText('Map unavailable (location is missing)')).toBeInTheDocument();
    expect(within(modal).getByText('12 Given Tce, Paddington QLD 4064, Australia')).toBeInTheDocument();
    await user.click(within(modal).getAllByRole('button', { name: 'Close' }).at(-1)!);
    await waitFor(() => expect(screen.queryByTestId('client-details-modal')).toBeNull());
    view.unmount();
  });

  it('keeps search, filters, order and page in the address: a shared link shows the same list', async () => {
    window.history.replaceState(null, '', '/clients?q=marg&tag=1&missing_address=true&sort=suburb&direction=desc&page=2&per_page=5');
    serveClients();
    const user = userEvent.setup();
    const here = () => new URLSearchParams(window.location.search);
    const view = renderWithServices(<ClientsPage route={findRoute('/clients')!} />);
    await screen.findAllByTestId('client-row');
    expect(Object.fromEntries(listRequests()[0])).toEqual({
      q: 'marg', tag_id: '1', missing_address: 'true', sort: 'suburb', direction: 'desc', page: '2', per_page: '5',
    });
    expect(screen.getByLabelText('Search')).toHaveValue('marg');
    expect(screen.getByLabelText('Tag')).toHaveValue('1');
    expect(screen.getByLabelText('Missing address')).toBeChecked();

    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(here().get('page')).toBe('3'));
    // Back to the defaults: they leave the address.
    await user.selectOptions(screen.getByLabelText('Tag'), 'All tags');
    await user.click(screen.getByLabelText('Missing address'));
    await user.clear(screen.getByLabelText('Search'));
    await waitFor(() => expect(window.location.search).toBe('?sort=suburb&direction=desc&per_page=5'));
    await user.type(screen.getByLabelText('Search'), 'jo');
    await waitFor(() => expect(listRequests().at(-1)!.get('q')).toBe('jo'));
    expect(here().get('q')).toBe('jo');
    view.unmount();
  });

  it('falls back to the defaults for values in the address it cannot use', async () => {
    window.history.replaceState(null, '', '/clients?tag=x&missing_address=maybe&sort=dob&direction=up&page=0&per_page=13');
    serveClients();
    const view = renderWithServices(<ClientsPage route={findRoute('/clients')!} />);
    await screen.findAllByTestId('client-row');
    expect(Object.fromEntries(listRequests()[0])).toEqual({ sort: 'name', direction: 'asc', page: '1', per_page: '10' });
    view.unmount();
  });

  it('opens a client from its link; closing it takes the client out of the address', async () => {
    window.history.replaceState(null, '', '/clients?client=1');
    serveClients();
    const user = userEvent.setup();
    const view = renderWithServices(<ClientsPage route={findRoute('/clients')!} />);
    const modal = await screen.findByTestId('client-details-modal');
    expect(await within(modal).findByText('31 Dec 1941')).toBeInTheDocument();
    await user.click(within(modal).getAllByRole('button', { name: 'Close' }).at(-1)!);
    await waitFor(() => expect(screen.queryByTestId('client-details-modal')).toBeNull());
    expect(window.location.search).toBe('');

    await user.click((await screen.findAllByTestId('client-row'))[0]);
    await screen.findByTestId('client-details-modal');
    expect(window.location.search).toBe('?client=1');
    window.history.back();
    await waitFor(() => expect(screen.queryByTestId('client-details-modal')).toBeNull());
    view.unmount();
  });
});
