// The coordinator's live desk (issue 26): the day schedule shows each visit's state and actual times beside the
// planned ones, today's visits with no check-in past the business's setting as a banner and a mark on each, each
// practitioner's lateness on their lane, and it reads today's day again every 15 s — never another day's.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import AppointmentsPage from '../../src/features/schedule/AppointmentsPage';
import { findRoute } from '../../src/router/routeTable';
import { api, server, received } from './support/fakeApi';
import { appointmentListBody, makeAppointment } from './support/fixtures';
import { renderWithServices, useFakeApi } from './support/harness';
import { makeSettings } from './support/routesFakeApi';
import type { Appointment } from '../../src/entities/appointments/api';

useFakeApi();
afterEach(() => {
  vi.useRealTimers();
  // @ts-expect-error -- back to jsdom's own (none): the lanes, not the phone's list.
  delete window.matchMedia;
});

const PAT = { id: 7, full_name: 'Pat Nguyen', active: true, time_zone: 'Australia/Brisbane' };
const SAM = { id: 8, full_name: 'Sam Lee', active: true, time_zone: 'Australia/Brisbane' };
const progress = (times: Partial<NonNullable<Appointment['visit']>>): Appointment['visit'] => ({
  on_my_way_at: null, arrived_at: null, done_at: null, could_not_attend_at: null, arrived_distance_m: null, arrived_far_from_client: false,
  reason: null, reason_text: null, note: null, ...times,
});
const client = (id: number, full_name: string) => ({ id, full_name, time_zone: 'Australia/Brisbane', availability: [] });
/** A visit of Tuesday 24 Nov 2026 at `hhmm` Brisbane (UTC+10), 45 minutes. */
const at = (hhmm: string) => new Date(`2026-11-24T${hhmm}:00+10:00`).toISOString();
const visit = (id: number, hhmm: string, overrides: Partial<Appointment>) => {
  const starts = at(hhmm);
  return makeAppointment({ id, starts_at: starts, arrive_at: starts, ends_at: new Date(Date.parse(starts) + 45 * 60_000).toISOString(), ...overrides });
};

// Now: Tuesday 24 Nov 2026 10:00 in Brisbane; the setting is the default, 15 minutes.
const NOW = new Date('2026-11-24T00:00:00Z');
const TODAY = [
  // Pat: done 08:12–08:58 after an 08:00 plan, then arrived at 09:48 for 09:30: running 18 min late.
  visit(1, '08:00', { practitioner: PAT, client: client(21, 'Ada Done'), visit_state: 'done', visit: progress({ arrived_at: at('08:12'), done_at: at('08:58') }) }),
  visit(2, '09:30', { practitioner: PAT, client: client(22, 'Ben Arrived'), visit_state: 'arrived', visit: progress({ on_my_way_at: at('09:20'), arrived_at: at('09:48') }) }),
  // Sam: no check-in at 09:00 (1 h late) nor 09:40 (20 min); 09:50 is only 10 minutes past; 11:00 is ahead.
  visit(3, '09:00', { practitioner: SAM, client: client(23, 'Cora Waiting') }),
  visit(4, '09:40', { practitioner: SAM, client: client(24, 'Dan Waiting') }),
  visit(5, '09:50', { practitioner: SAM, client: client(25, 'Eve Soon') }),
  visit(6, '11:00', { practitioner: SAM, client: client(26, 'Fay Later') }),
  // Cancelled long ago: never overdue.
  visit(7, '08:30', { practitioner: SAM, client: client(27, 'Gus Cancelled'), status: 'CANCELLED', cancelled_at: at('07:00') }),
];

function serve(appointments: Appointment[] = TODAY) {
  server.use(
    http.get(api('/routes'), () => HttpResponse.json({ routes: [] })),
    http.get(api('/optimization_settings'), () => HttpResponse.json({ optimization_settings: makeSettings() })),
    http.get(api('/appointments/travel'), ({ request }) => HttpResponse.json({
      date: new URL(request.url).searchParams.get('date'), travel: 'haversine', appointments: [], practitioners: [],
    })),
    http.get(api('/practitioners/all'), () => HttpResponse.json({ practitioners: [PAT, SAM] })),
    http.get(api('/appointment_types/all'), () => HttpResponse.json({ appointment_types: [{ id: 3, name: 'Home visit', duration: 60, color: null }] })),
    http.get(api('/business_locations/all'), () => HttpResponse.json({ business_locations: [] })),
    http.get(api('/appointments'), ({ request }) => HttpResponse.json(appointmentListBody(appointments, new URL(request.url).searchParams))),
  );
}

const listRequests = () => received.filter((request) => request.path === '/api/appointments');
const lane = async (name: string) => (await screen.findAllByTestId('schedule-lane')).find((item) => item.getAttribute('aria-label') === name)!;
const blockOf = (within_: HTMLElement, name: string) => within(within_).getAllByTestId('schedule-block').find((block) => block.getAttribute('aria-label')?.includes(name))!;

function openSchedule(day = '2026-11-24') {
  window.history.replaceState(null, '', `/appointments?view=schedule&start=${day}&end=${day}`);
  return renderWithServices(<AppointmentsPage route={findRoute('/appointments')!} />);
}

describe('the day schedule as it happens', () => {
  it("shows each visit's state and actual times beside the planned ones", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    serve();
    const view = openSchedule();
    const pat = await lane('Pat Nguyen');
    const done = blockOf(pat, 'Ada Done');
    expect(done).toHaveAttribute('data-state', 'done');
    // The name holds the block's visible words (WCAG 2.5.3); the tooltip keeps every step's time.
    expect(done).toHaveAttribute('aria-label', '08:00 Ada Done Done 08:12–08:58 (Home visit)');
    expect(done.getAttribute('title')).toContain('Done (Arrived 08:12 · Done 08:58)');
    expect(within(done).getByTestId('block-actual')).toHaveTextContent('Done 08:12–08:58');
    const arrived = blockOf(pat, 'Ben Arrived');
    expect(arrived).toHaveAttribute('data-state', 'arrived');
    expect(within(arrived).getByTestId('block-actual')).toHaveTextContent('Arrived 09:48');
    expect(within(arrived).getByText('09:30')).toBeInTheDocument();
    // A visit not started says nothing new.
    expect(blockOf(await lane('Sam Lee'), 'Fay Later')).toHaveAttribute('aria-label', '11:00 Fay Later (Home visit)');
    view.unmount();
  });

  it('names the overdue visits in a banner, marks each, and says who is running late', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    serve();
    const view = openSchedule();
    const banner = await screen.findByTestId('overdue-banner');
    expect(within(banner).getAllByTestId('overdue-alert').map((item) => item.textContent)).toEqual([
      'Cora Waiting: not started, 1 h late (Sam Lee)', 'Dan Waiting: not started, 20 min late (Sam Lee)',
    ]);
    expect(banner).toHaveTextContent('2 visits need you');
    expect(banner).toHaveTextContent('Each past the account’s 15 min');

    const sam = await lane('Sam Lee');
    const marked = within(sam).getAllByTestId('schedule-block').filter((block) => block.getAttribute('data-overdue') === 'true');
    expect(marked.map((block) => block.getAttribute('aria-label'))).toEqual([
      // The mark's word ("Late") is part of the name where it shows, in its place (WCAG 2.5.3).
      '09:00 Cora Waiting Late (Home visit), Not started, 1 h late',
      '09:40 Dan Waiting Late (Home visit), Not started, 20 min late',
    ]);
    for (const block of marked) expect(within(block).getByTestId('block-overdue')).toBeInTheDocument();
    expect(within(blockOf(sam, 'Eve Soon')).queryByTestId('block-overdue')).toBeNull();

    expect(within(await lane('Pat Nguyen')).getByTestId('lane-late')).toHaveTextContent('Running 18 min late');
    expect(within(sam).queryByTestId('lane-late')).toBeNull();

    // A name in the banner opens the visit.
    server.use(http.get(api('/appointments/:id'), ({ params }) => HttpResponse.json({ appointment: TODAY.find((item) => String(item.id) === params.id) })));
    act(() => within(banner).getByRole('button', { name: 'Cora Waiting' }).click());
    expect(await screen.findByTestId('appointment-details-modal')).toBeInTheDocument();
    view.unmount();
  });

  it('on a phone, lists each visit with its state, actual times and overdue words, and the lane its lateness', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    window.matchMedia = ((query: string) => ({ matches: true, media: query, addEventListener: () => {}, removeEventListener: () => {} })) as unknown as typeof window.matchMedia;
    serve();
    const view = openSchedule();
    const agenda = await screen.findByTestId('day-agenda');
    const pat = within(agenda).getAllByTestId('schedule-lane')[0];
    expect(within(pat).getByTestId('lane-late')).toHaveTextContent('Running 18 min late');
    expect(within(pat).getAllByTestId('block-actual').map((line) => line.textContent)).toEqual(['Arrived 08:12 · Done 08:58', 'On my way 09:20 · Arrived 09:48']);
    const sam = within(agenda).getAllByTestId('schedule-lane')[1];
    expect(within(sam).getAllByTestId('block-overdue').map((line) => line.textContent)).toEqual(['Not started · 1 h late', 'Not started · 20 min late']);
    view.unmount();
  });

  it('says who is on the way beyond the travel plus the setting and who is still there beyond the booked length, and marks every state with a legend', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    const HAL = { id: 9, full_name: 'Hal Kerr', active: true, time_zone: 'Australia/Brisbane' };
    serve([
      ...TODAY,
      // Hal set off at 09:05 for 09:15, 20 minutes away: due 09:25, so at 10:00 he is 35 min past it (more than 15).
      visit(8, '09:15', { practitioner: HAL, client: client(28, 'Ivy Road'), visit_state: 'on_my_way', visit: progress({ on_my_way_at: at('09:05') }) }),
      // Arrived at 08:15 for 45 minutes: 1 h 45 min there, more than 45 + 15.
      visit(9, '08:15', { practitioner: SAM, client: client(29, 'Jo Long'), visit_state: 'arrived', visit: progress({ arrived_at: at('08:15') }) }),
    ]);
    server.use(http.get(api('/appointments/travel'), ({ request }) => HttpResponse.json({
      date: new URL(request.url).searchParams.get('date'), travel: 'haversine',
      appointments: [{ appointment_id: 8, practitioner_id: 9, previous_appointment_id: null, travel_seconds_from_previous: null, travel_metres: null, gap_seconds: null, needs_more_seconds: 0, on_leave: false }],
      practitioners: [{ practitioner_id: 9, start_place: null, end_place: null, start_leg: { travel_seconds: 1_200, travel_metres: 15_000 }, end_leg: null, depart_at: null, back_at: null, estimated: true, route_id: null, route_changed: false }],
    })));
    const view = openSchedule();
    const banner = await screen.findByTestId('overdue-banner');
    await waitFor(() => expect(within(banner).getAllByTestId('overdue-alert').map((item) => item.textContent)).toEqual([
      'Sam Lee arrived at Jo Long 1 h 45 min ago, visit booked for 45 min',
      'Cora Waiting: not started, 1 h late (Sam Lee)',
      'Hal Kerr has been on the way to Ivy Road for 55 min',
      'Dan Waiting: not started, 20 min late (Sam Lee)',
    ]));
    const hal = await lane('Hal Kerr');
    const onTheWay = blockOf(hal, 'Ivy Road');
    expect(within(onTheWay).getByTestId('block-overdue')).toHaveAttribute('data-kind', 'on_the_way');
    expect(onTheWay.getAttribute('aria-label')).toContain('On my way (On my way 09:05), on the way 55 min');
    const joLong = blockOf(await lane('Sam Lee'), 'Jo Long');
    expect(within(joLong).getByTestId('block-overdue')).toHaveTextContent('Over');
    // What the block shows is the start of its name, word for word (WCAG 2.5.3): its actual times and its mark are two
    // words ("Arrived 09:00 Over"), not one ("09:00Over", which axe flagged on every visit over its time).
    const words = (text: string) => text.replace(/\([^()]*\)/g, ' ').split(/[^\p{L}\p{N}]+/u).filter(Boolean).join(' ').toLowerCase();
    expect(words(joLong.getAttribute('aria-label')!)).toContain(words(joLong.textContent!));
    expect(words(onTheWay.getAttribute('aria-label')!)).toContain(words(onTheWay.textContent!));

    // Every started visit carries its state's mark, whatever its width; not started ones none; the legend says them.
    const pat = await lane('Pat Nguyen');
    expect(within(blockOf(pat, 'Ada Done')).getByTestId('visit-state-mark')).toHaveAttribute('data-state', 'done');
    expect(within(blockOf(pat, 'Ben Arrived')).getByTestId('visit-state-mark')).toHaveAttribute('data-state', 'arrived');
    expect(within(onTheWay).getByTestId('visit-state-mark')).toHaveAttribute('data-state', 'on_my_way');
    expect(within(blockOf(await lane('Sam Lee'), 'Fay Later')).queryByTestId('visit-state-mark')).toBeNull();
    const legend = screen.getByRole('list', { name: 'What the marks say' });
    expect(within(legend).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'On my way', 'Arrived', 'Done', 'Could not attend', 'No mark: not started', 'Lateneeds you (see the banner)', 'Colour: the appointment type',
    ]);
    view.unmount();
  });

  it('shows no overdue banner or lateness on another day', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-25T00:00:00Z')); // the next day, 10:00
    serve();
    const view = openSchedule('2026-11-24');
    await lane('Sam Lee');
    expect(screen.queryByTestId('overdue-banner')).toBeNull();
    expect(screen.queryAllByTestId('block-overdue')).toEqual([]);
    expect(screen.queryByTestId('lane-late')).toBeNull();
    // The actual times are still shown: they are the day's record.
    expect(within(blockOf(await lane('Pat Nguyen'), 'Ada Done')).getByTestId('block-actual')).toHaveTextContent('Done 08:12–08:58');
    view.unmount();
  });
});

describe('live', () => {
  it('reads today again every 15 s, and a check-in made meanwhile clears its overdue mark', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'], shouldAdvanceTime: true });
    vi.setSystemTime(NOW);
    let listed = TODAY;
    serve();
    server.use(http.get(api('/appointments'), ({ request }) => HttpResponse.json(appointmentListBody(listed, new URL(request.url).searchParams))));
    const view = openSchedule();
    await screen.findByTestId('overdue-banner');
    const first = listRequests().length;

    // Cora's practitioner taps Arrived at 10:05.
    listed = TODAY.map((item) => (item.id === 3 ? { ...item, visit_state: 'arrived' as const, visit: progress({ arrived_at: at('10:05') }) } : item));
    await act(() => vi.advanceTimersByTimeAsync(14_000));
    expect(listRequests().length).toBe(first);
    await act(() => vi.advanceTimersByTimeAsync(1_500));
    await waitFor(() => expect(listRequests().length).toBe(first + 1));
    await waitFor(() => expect(screen.getByTestId('overdue-banner')).toHaveTextContent('1 visit needs you:Dan Waiting: not started, 20 min late (Sam Lee)'));
    const sam = await lane('Sam Lee');
    expect(blockOf(sam, 'Cora Waiting')).toHaveAttribute('data-state', 'arrived');
    // Sam arrived 65 minutes after the 09:00 plan.
    expect(within(sam).getByTestId('lane-late')).toHaveTextContent('Running 1 h 5 min late');

    await act(() => vi.advanceTimersByTimeAsync(15_000));
    await waitFor(() => expect(listRequests().length).toBe(first + 2));
    view.unmount();
  });

  it('reads today again as soon as the server pushes a step, without waiting for the 15 s reading', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    const streams: FakeEventSource[] = [];
    class FakeEventSource extends EventTarget {
      constructor(readonly url: string) {
        super();
        streams.push(this);
      }
      close() {}
    }
    vi.stubGlobal('EventSource', FakeEventSource);
    try {
      let listed = TODAY;
      serve();
      server.use(
        http.get(api('/appointments'), ({ request }) => HttpResponse.json(appointmentListBody(listed, new URL(request.url).searchParams))),
        http.post(api('/live/tickets'), () => HttpResponse.json({ ticket: 'ticket-1', expires_at: at('10:00') }, { status: 201 })),
      );
      const view = openSchedule();
      await screen.findByTestId('overdue-banner');
      // The stream is opened with the single-use ticket, never the session's token.
      await waitFor(() => expect(streams).toHaveLength(1));
      expect(streams[0].url).toMatch(/\/api\/live\/events\?ticket=ticket-1$/);
      const first = listRequests().length;

      // Cora's practitioner taps Arrived; the server tells the desk.
      listed = TODAY.map((item) => (item.id === 3 ? { ...item, visit_state: 'arrived' as const, visit: progress({ arrived_at: at('10:05') }) } : item));
      const pushed = performance.now();
      act(() => {
        streams[0].dispatchEvent(new MessageEvent('visits', { data: JSON.stringify({ kind: 'step', practitioner_id: SAM.id, appointment_id: 3 }) }));
      });
      await waitFor(() => expect(blockOf(screen.getAllByTestId('schedule-lane')[1], 'Cora Waiting')).toHaveAttribute('data-state', 'arrived'));
      expect(performance.now() - pushed).toBeLessThan(2_000);
      expect(listRequests().length).toBe(first + 1);
      expect(screen.getByTestId('overdue-banner')).toHaveTextContent('1 visit needs you');
      view.unmount();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('does not read another day again', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'], shouldAdvanceTime: true });
    vi.setSystemTime(NOW);
    serve();
    const view = openSchedule('2026-11-23');
    await screen.findByText('No appointments on this day.');
    const first = listRequests().length;
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(listRequests().length).toBe(first);
    view.unmount();
  });
});
