// The user guide (/help) walks a coordinator's and a practitioner's whole day in the app's own words: optimising,
// the proposal and Apply, routes, moving a visit and "Insert into a route", Nearby search, and the run sheet.
import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderPage, useFakeApi } from './support/harness';
import HelpPage from '../../src/features/help/HelpPage';

useFakeApi();

const section = async (title: string) => (await screen.findByRole('heading', { name: title })).parentElement!;

describe('user guide', () => {
  it("covers a coordinator's day from import to telling clients, with the labels the app shows", async () => {
    renderPage(HelpPage, { path: '/help', role: 'REGULAR_USER' });
    const day = await section('A coordinator’s day');
    for (const words of [
      /press Optimise, choose the day and the practitioners/, /Read the proposal before anything changes/, /Press Apply to keep it, or Discard/,
      /Routes: applying makes each practitioner’s day a route/, /“Route changed”/,
      /Press Undo optimisation under the name: every visit goes back to the time and practitioner it had before/, /Move by hand/, /Insert into a route: press Find the best place/,
      /Nearby search starts from a client/, /Open … ’s day/, /Keep this time/, /Only the future moves: days before today cannot be optimised/, /Send availability request/, /Export the new times/,
      /under Practitioners, choose the practitioners the client prefers and those they have asked not to see, and press Save practitioners/,
      /An excluded practitioner is never given that client’s visits/,
      /The rules of home care: every plan keeps to them/, /An arrival stays within 30 minutes of the booked time/,
      /A client never has two visits at once/, /they arrive together, as booked/, /never adds a break of the hard rules/,
      /No visit is booked while its practitioner is on leave/, /a notice after it says what to check/,
    ]) expect(day).toHaveTextContent(words);
    expect(within(day).getByRole('link', { name: 'Nearby search' })).toHaveAttribute('href', '/search');
  });

  it('covers booking, rescheduling and cancelling, care plans and open visits, with the labels the app shows', async () => {
    renderPage(HelpPage, { path: '/help', role: 'REGULAR_USER' });
    const booking = await section('Booking, rescheduling and cancelling visits');
    for (const words of [
      /New visit on the day schedule/, /Book a visit in a client’s details or on a Nearby search result/, /press Best fit/, /Why not others\?/,
      /Saving to Cliniko…/, /never books it twice/, /Not saved/, /Try again and Discard/, /Changed in Cliniko/,
      /Overwrite Cliniko or Keep Cliniko’s version/, /Cancel visit asks for Cliniko’s reason/, /Re-optimise …’s day/,
    ]) expect(booking).toHaveTextContent(words);
    const care = await section('Care plans and open visits');
    for (const words of [/Add to care plan/, /End plan/, /Away \/ in hospital/, /public holidays/, /Fill shows who could take it/, /press Needs another practitioner in the visit’s details/, /it is cancelled in Cliniko and waits in the open visits/, /Plan care visits/, /Book N visits/]) {
      expect(care).toHaveTextContent(words);
    }
    expect(within(care).getByRole('link', { name: 'Open visits' })).toHaveAttribute('href', '/open-visits');
  });

  it("covers a practitioner's day on the run sheet", async () => {
    renderPage(HelpPage, { path: '/help', role: 'PRACTITIONER' });
    const day = await section('A practitioner’s day');
    expect(day).toHaveTextContent(/it opens on today’s Run sheet, your visits in the order you make them/);
    expect(day).toHaveTextContent(/Google Maps, Apple Maps and Waze open the directions/);
  });
});
