// The reminder email's unsubscribe page: opening the link stops the reminders and says so; a broken link is explained.
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import UnsubscribePage from '../../src/features/public-reminders/UnsubscribePage';
import { findRoute } from '../../src/router/routeTable';
import { api, server, received as sent } from './support/fakeApi';
import { renderWithServices, useFakeApi } from './support/harness';

useFakeApi();

const route = findRoute('/client/reminders/unsubscribe')!;
function openLink(search: string) {
  window.history.replaceState(null, '', `/client/reminders/unsubscribe${search}`);
  return renderWithServices(<UnsubscribePage route={route} />);
}

describe('reminders unsubscribe page', () => {
  it('stops the reminders with the token once and tells the client, naming their care provider', async () => {
    server.use(http.post(api('/public/reminders/unsubscribe'), () =>
      HttpResponse.json({ message: "You won't get appointment reminders any more.", business_name: 'Brisbane Demo Care' })));
    const view = openLink('?token=12.abc');
    expect(await screen.findByRole('heading', { name: 'You won’t get reminders any more' })).toBeInTheDocument();
    expect(screen.getByTestId('unsubscribed')).toHaveTextContent('Brisbane Demo Care will no longer send you appointment reminders.');
    const posts = sent.filter((request) => request.method === 'POST');
    expect(posts).toEqual([expect.objectContaining({ path: '/api/public/reminders/unsubscribe', body: { token: '12.abc' } })]);
    view.unmount();
  });

  it('explains a link that is not valid, and one without its token, without calling the server for the latter', async () => {
    server.use(http.post(api('/public/reminders/unsubscribe'), () => HttpResponse.json({ message: 'This link is not valid.' }, { status: 422 })));
    let view = openLink('?token=forged');
    expect(await screen.findByTestId('unsubscribe-problem')).toHaveAttribute('data-problem', 'invalid');
    view.unmount();
    const before = sent.length;
    view = openLink('');
    expect(screen.getByRole('heading', { name: 'This link is incomplete' })).toBeInTheDocument();
    expect(sent.length).toBe(before);
    view.unmount();
  });
});
