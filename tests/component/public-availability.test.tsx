import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import UpdateAvailabilityPage from '../../src/features/public-availability/UpdateAvailabilityPage';
import { findRoute } from '../../src/router/routeTable';
import { api, server, received as sent } from './support/fakeApi';
import { renderWithServices, useFakeApi } from './support/harness';

useFakeApi();

const route = findRoute('/client/update-availability')!;
function openLink(search: string) {
  window.history.replaceState(null, '', `/client/update-availability${search}`);
  return renderWithServices(<UpdateAvailabilityPage route={route} />);
}

describe('public availability page', () => {
  it('greets the client and saves through the public endpoint with the token', async () => {
    server.use(
      http.get(api('/public/availability'), ({ request }) =>
        new URL(request.url).searchParams.get('token') === 'tok-123'
          ? HttpResponse.json({
            client: { first_name: 'Margaret' }, business: { name: 'Acme Care', email: 'office@acme.example', phone: '07 3000 1234' },
            availability: [{ dow: 1 }], expires_at: '2026-12-01T00:00:00Z',
          })
          : HttpResponse.json({ message: 'bad' }, { status: 422 }),
      ),
      http.put(api('/public/availability'), async ({ request }) => {
        const body = (await request.json()) as { availability: unknown };
        return HttpResponse.json({ message: 'Saved', availability: body.availability });
      }),
    );
    const user = userEvent.setup();
    const view = openLink('?token=tok-123');
    expect(await screen.findByRole('heading', { name: 'Hi Margaret' })).toBeInTheDocument();
    // The care provider asking is named, with how to reach it.
    expect(screen.getByText('Acme Care asks when you are available for home visits.')).toBeInTheDocument();
    expect(screen.getByTestId('public-availability-contact')).toHaveTextContent('Questions? Contact Acme Care on 07 3000 1234 or at office@acme.example.');
    expect(screen.getByRole('link', { name: 'office@acme.example' })).toHaveAttribute('href', 'mailto:office@acme.example');
    const editor = screen.getByTestId('availability-editor');
    expect(within(editor).getByLabelText('Monday')).toBeChecked();
    await user.click(within(editor).getByLabelText('Monday all day'));
    await user.click(within(editor).getByLabelText('Monday 09:00-12:00'));
    await user.click(within(editor).getByLabelText('Friday'));
    await user.click(screen.getByRole('button', { name: 'Save my availability' }));
    expect(await screen.findByTestId('public-availability-saved')).toHaveTextContent('Thank you, Margaret');
    expect(screen.getByTestId('public-availability-saved')).toHaveTextContent('Acme Care will plan your visits around it.');
    expect(sent.find((request) => request.method === 'PUT')).toMatchObject({
      path: '/api/public/availability',
      body: { token: 'tok-123', availability: [{ dow: 1, hours: ['09:00-12:00'] }, { dow: 5 }] },
    });
    view.unmount();
  });

  it('explains an expired or used link instead of showing an error', async () => {
    server.use(http.get(api('/public/availability'), () => HttpResponse.json({ message: 'Token expired', code: 'GONE' }, { status: 410 })));
    const view = openLink('?token=old');
    expect(await screen.findByRole('heading', { name: 'This link has expired or has already been used' })).toBeInTheDocument();
    expect(screen.queryByTestId('availability-editor')).toBeNull();
    view.unmount();
  });

  it('switches to the expired page when the link is used up while saving', async () => {
    server.use(
      http.get(api('/public/availability'), () => HttpResponse.json({ client: { first_name: 'Margaret' }, business: { name: 'Acme Care', email: null, phone: null }, availability: [], expires_at: '2026-12-01T00:00:00Z' })),
      http.put(api('/public/availability'), () => HttpResponse.json({ message: 'This link has already been used.' }, { status: 410 })),
    );
    const user = userEvent.setup();
    const view = openLink('?token=tok');
    await user.click(await screen.findByRole('button', { name: 'Save my availability' }));
    expect(await screen.findByRole('heading', { name: 'This link has expired or has already been used' })).toBeInTheDocument();
    view.unmount();
  });

  it('explains a link without a token without calling the server', async () => {
    const view = openLink('');
    expect(await screen.findByRole('heading', { name: 'This link is incomplete' })).toBeInTheDocument();
    expect(sent.some((request) => request.path === '/api/public/availability')).toBe(false);
    view.unmount();
  });

  it('shows a save failure inline and keeps the form', async () => {
    server.use(
      http.get(api('/public/availability'), () => HttpResponse.json({ client: { first_name: 'Margaret' }, business: { name: 'Acme Care', email: null, phone: null }, availability: [], expires_at: '2026-12-01T00:00:00Z' })),
      http.put(api('/public/availability'), () => HttpResponse.json({ message: 'Too many requests, please wait.' }, { status: 429 })),
    );
    const user = userEvent.setup();
    const view = openLink('?token=tok');
    await user.click(await screen.findByRole('button', { name: 'Save my availability' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many requests, please wait.');
    expect(screen.getByTestId('availability-editor')).toBeInTheDocument();
    view.unmount();
  });
});
