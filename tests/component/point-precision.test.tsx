// How precise a point is, shown wherever one is used: the shared mark and map summary, the client and appointment
// modals, the day map and the proposal (its map and the visits it could not place for want of a position).
import { describe, expect, it } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { ClientDetailsModal } from '../../src/features/clients/ClientDetailsModal';
import { jobRunMachine } from '../../src/machines/jobRun';
import { PointPrecision, precisionOfPlaces, PrecisionSummary } from '../../src/ui/PointPrecision';
import { api, server } from './support/fakeApi';
import { makeClient, makeTag } from './support/fixtures';
import { renderWithServices, useFakeApi } from './support/harness';
import { freshFake, renderDaySchedule, serveRoutes } from './support/routesFakeApi';

useFakeApi();

describe('the precision mark', () => {
  it('says a point short of the building in a few words, with how it was placed on hover or beside it, and nothing at the address', () => {
    const { rerender } = render(<PointPrecision precision="suburb" source="gazetteer" />);
    const mark = screen.getByTestId('point-precision');
    expect(mark).toHaveTextContent('Approximate: suburb only');
    expect(screen.getByText('Approximate: suburb only')).toHaveAccessibleDescription(
      'Placed at the centre of the suburb or postcode (from the Australian suburb and postcode table).',
    );
    rerender(<PointPrecision precision="street" source="sandbox" detail />);
    expect(screen.getByTestId('point-precision')).toHaveTextContent(
      'Approximate: street onlyPlaced on the street, not at the exact building (from the demo’s made-up streets, not for navigation).',
    );
    rerender(<PointPrecision precision="none" detail />);
    expect(screen.getByTestId('point-precision')).toHaveTextContent('Not on the mapNo place was found for this address.');
    rerender(<PointPrecision precision="address" source="google" detail />);
    expect(screen.queryByTestId('point-precision')).toBeNull();
  });

  it('sums a map up by precision: names, a few then how many more, "all" when every point is alike, nothing when all are exact', () => {
    const named = (precision: 'address' | 'street' | 'suburb' | 'none', ...names: string[]) => names.map((name) => ({ name, precision }));
    const { rerender } = render(
      <PrecisionSummary points={[...named('address', 'Ann'), ...named('suburb', 'Bob', 'Bob'), ...named('none', 'Cy'), ...named('street', 'A', 'B', 'C', 'D', 'E', 'F', 'G')]} />,
    );
    const lines = () => within(screen.getByTestId('precision-summary')).getAllByRole('listitem').map((item) => item.textContent);
    expect(lines()).toEqual([
      expect.stringMatching(/^Approximate: suburb only.*Bob$/),
      expect.stringMatching(/^Approximate: street only.*A, B, C, D, E and 2 more$/),
      expect.stringMatching(/^Not on the map.*Cy$/),
    ]);
    rerender(<PrecisionSummary points={named('street', 'Ann', 'Bob', 'Cy')} />);
    expect(lines()).toEqual([expect.stringMatching(/^Approximate: street only.*all 3 clients$/)]);
    rerender(<PrecisionSummary points={named('address', 'Ann', 'Bob')} />);
    expect(screen.queryByTestId('precision-summary')).toBeNull();
  });
});

describe('start and end places under a map', () => {
  it('are named by whose they are, once each, and only when their precision is known', () => {
    const home = { name: 'Home', geo_precision: 'street' as const };
    const points = precisionOfPlaces([
      { name: 'Pat Nguyen', places: [home, home] },
      { name: 'Sam Lee', places: [{ name: 'Depot', geo_precision: 'suburb' }, { name: 'Office' }] },
      { name: 'Jo Park', places: [null, { name: 'Home', geo_precision: 'address' }] },
    ]);
    render(<PrecisionSummary points={points} noun="start and end places" />);
    expect(within(screen.getByTestId('precision-summary')).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^Approximate: suburb only.*Sam Lee \(Depot\)$/),
      expect.stringMatching(/^Approximate: street only.*Pat Nguyen \(Home\)$/),
    ]);
  });
});

describe('where a point is used', () => {
  function serveClient(client: ReturnType<typeof makeClient>) {
    server.use(
      http.get(api('/clients/11'), () => HttpResponse.json({ client })),
      http.get(api('/tags/all'), () => HttpResponse.json({ tags: [makeTag(1, 'Weekly')] })),
    );
  }

  it('the client modal says under the map how precisely the client is placed, and nothing when at the address', async () => {
    serveClient(makeClient({ geo_precision: 'suburb', geo_source: 'gazetteer' }));
    const view = renderWithServices(<ClientDetailsModal clientId={11} onClose={() => {}} />);
    const modal = await screen.findByTestId('client-details-modal');
    expect(await within(modal).findByTestId('svg-map')).toBeInTheDocument();
    expect(within(modal).getByTestId('point-precision')).toHaveTextContent(
      'Approximate: suburb onlyPlaced at the centre of the suburb or postcode (from the Australian suburb and postcode table).',
    );
    view.unmount();

    serveClient(makeClient({ lat: null, lng: null, geo_precision: 'none', geo_source: null }));
    const unplaced = renderWithServices(<ClientDetailsModal clientId={11} onClose={() => {}} />);
    expect(await within(await screen.findByTestId('client-details-modal')).findByTestId('point-precision')).toHaveTextContent('Not on the map');
    unplaced.unmount();

    serveClient(makeClient());
    const exact = renderWithServices(<ClientDetailsModal clientId={11} onClose={() => {}} />);
    expect(await within(await screen.findByTestId('client-details-modal')).findByTestId('svg-map')).toBeInTheDocument();
    expect(screen.queryByTestId('point-precision')).toBeNull();
    exact.unmount();
  });

  it('the day map lists the visits placed only at their suburb and those not on it; the proposal says the same under its map and beside the unplaced visit', async () => {
    serveRoutes(server, freshFake());
    const user = userEvent.setup();
    const view = renderDaySchedule({ machines: { jobRun: jobRunMachine.provide({ delays: { pollInterval: 20 } }) } });
    const summary = await screen.findByTestId('precision-summary');
    const lines = (element: HTMLElement) => within(element).getAllByRole('listitem').map((item) => item.textContent);
    // Jo's cancelled visit is not on the day's map, and is not counted.
    expect(lines(summary)).toEqual([expect.stringMatching(/^Approximate: suburb only.*Dora Ellis$/), expect.stringMatching(/^Not on the map.*Evan Fox$/)]);

    await user.click(screen.getByRole('button', { name: 'Optimise' }));
    const dialog = await screen.findByTestId('optimise-dialog');
    await waitFor(() => expect(within(dialog).getByTestId('optimise-visit-count')).toHaveTextContent('5 visits'));
    await user.click(within(dialog).getByRole('button', { name: 'Start' }));
    const unplaced = await within(dialog).findByTestId('proposal-unplaced');
    expect(within(unplaced).getByTestId('point-precision')).toHaveTextContent('Not on the map');
    // The proposal's map: Dora is drawn at her suburb's centre (Evan, not placed, is not on it).
    expect(lines(within(dialog).getByTestId('precision-summary'))).toEqual([expect.stringMatching(/^Approximate: suburb only.*Dora Ellis$/)]);
    view.unmount();
  });
});
