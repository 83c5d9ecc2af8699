// The day schedule's banner on a day whose routes changed after they were optimised: its title and words agree with
// how many routes it lists.
import { beforeEach, describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { at, makeRoute } from '../../src/testing/optimizations';
import { server } from './support/fakeApi';
import { useFakeApi } from './support/harness';
import { freshFake, renderDaySchedule, serveRoutes, type RoutesFake } from './support/routesFakeApi';

useFakeApi();
let fake: RoutesFake;
beforeEach(() => {
  fake = freshFake();
  serveRoutes(server, fake);
});

describe('the stale-route banner', () => {
  it('speaks of routes in the plural above a list of four practitioners', async () => {
    fake.routes = ['Pat Nguyen', 'Sam Lee', 'Jo Park', 'Ana Cruz'].map((name, index) =>
      makeRoute({ id: 61 + index, practitioner_id: 7 + index, practitioner_name: name, stale_at: at('07:15') }));
    const view = renderDaySchedule();
    const banner = await screen.findByTestId('stale-route-banner');
    expect(banner.querySelector('p')).toHaveTextContent(/^4 routes changed after they were optimised\.$/);
    expect(banner).toHaveTextContent('Pat Nguyen (since 25 Nov 2026 07:15), Sam Lee (since 25 Nov 2026 07:15), Jo Park (since 25 Nov 2026 07:15), Ana Cruz (since 25 Nov 2026 07:15). Their arrival times may no longer fit the day: optimise the day again, or remove the routes to edit the times by hand.');
    view.unmount();
  });

  it('speaks of one route in the singular', async () => {
    fake.routes = [makeRoute({ stale_at: at('07:15') })];
    const view = renderDaySchedule();
    const banner = await screen.findByTestId('stale-route-banner');
    expect(banner).toHaveTextContent('Pat Nguyen (since 25 Nov 2026 07:15). Its arrival times may no longer fit the day: optimise the day again, or remove the route to edit the times by hand.');
    view.unmount();
  });
});
