// The rule book on the day schedule: a banner with the day's hard problems in words and the soft ones folded beneath,
// a mark on each visit concerned (its problems in its name and tooltip), checked again when the day's visits change;
// for ADMIN and REGULAR_USER only, on the lanes and on a phone's list.
// Also the day’s open visits (visits that need a practitioner), said above the lanes with the way to fill them.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { appointmentQueries } from '../../src/entities/appointments/queries';
import { at } from '../../src/testing/optimizations';
import { http, HttpResponse } from 'msw';
import { api, received, server } from './support/fakeApi';
import { makeAppointment } from './support/fixtures';
import { useFakeApi } from './support/harness';
import { freshFake, renderDaySchedule, SAM, serveRoutes, type RoutesFake } from './support/routesFakeApi';

useFakeApi();

const OVERLAP = 'Margaret Jones has two visits at once: 09:00–10:00 with Pat Nguyen and 09:30–10:30 with Sam Lee.';
const TOO_FAR = "Dora Ellis's visit booked 12:30 arrives 14:00: more than 30 min from the booked time.";
const LATE_SHIFT = "Evan Fox 15:00–15:30 is outside Sam Lee's working hours (08:00–15:00).";

let fake: RoutesFake;
beforeEach(() => {
  fake = freshFake();
  // Margaret Jones also has a visit with Sam at 09:30, while Pat is still with her.
  fake.visits.push(makeAppointment({
    id: 7, starts_at: at('09:30'), ends_at: at('10:30'), arrive_at: at('09:30'), practitioner: SAM,
    client: { id: 11, full_name: 'Margaret Jones', time_zone: 'Australia/Brisbane', availability: [] },
  }));
  fake.issues = [
    { rule: 'client-overlap', hard: true, appointment_ids: [1, 7], message: OVERLAP },
    { rule: 'tolerance', hard: true, appointment_ids: [4], message: TOO_FAR },
    { rule: 'working-hours', hard: false, appointment_ids: [5], message: LATE_SHIFT },
  ];
  serveRoutes(server, fake);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const blockAt = (time: string, name: string) =>
  screen.getAllByTestId('schedule-block').find((block) => block.getAttribute('aria-label')?.startsWith(`${time} ${name}`))!;
const issueReads = () => received.filter((request) => request.path === '/api/schedule/issues');

describe('the day’s problems on the day schedule', () => {
  it('lists the hard problems in a banner, folds the soft ones, and marks each visit concerned', async () => {
    const user = userEvent.setup();
    const view = renderDaySchedule();
    const banner = await screen.findByRole('region', { name: 'Problems on this day' });
    expect(within(banner).getByRole('heading')).toHaveTextContent('2 problems on this day');
    expect(within(within(banner).getByTestId('day-issues-hard')).getAllByRole('listitem').map((item) => item.textContent)).toEqual([`${OVERLAP}Open visit 1Open visit 2`, `${TOO_FAR}Open the visit`]);
    expect(issueReads().map((request) => request.search)).toEqual(['?date=2026-11-25']);

    // The soft one is there, folded: allowed by the rules, but worth a look.
    const soft = within(banner).getByTestId('day-issues-soft');
    expect(soft).not.toHaveAttribute('open');
    await user.click(within(soft).getByText('1 soft problem: allowed by the rules, but worth a look'));
    expect(soft).toHaveAttribute('open');
    expect(within(soft).getByRole('listitem')).toHaveTextContent(LATE_SHIFT);
    // Each problem opens its visits.
    await user.click(within(banner).getAllByRole('button', { name: 'Open the visit' })[0]);
    expect(await screen.findByTestId('appointment-details-modal')).toBeInTheDocument();
    await user.keyboard('{Escape}');

    // Both of Margaret's visits, Dora's and Evan's carry a mark and say why; the others carry none.
    await waitFor(() => expect(screen.getAllByTestId('block-rule-problem')).toHaveLength(4));
    expect(blockAt('09:00', 'Margaret Jones')).toHaveAccessibleName(`09:00 Margaret Jones (Home visit), ${OVERLAP}`);
    expect(blockAt('09:30', 'Margaret Jones').title).toContain(OVERLAP);
    expect(blockAt('14:00', 'Dora Ellis')).toHaveAccessibleName(`14:00 Dora Ellis (Home visit), ${TOO_FAR}`);
    expect(blockAt('15:00', 'Evan Fox').title).toContain(LATE_SHIFT);
    expect(within(blockAt('10:30', 'Bert Smith')).queryByTestId('block-rule-problem')).toBeNull();
    expect(blockAt('10:30', 'Bert Smith')).toHaveAccessibleName('10:30 Bert Smith (Home visit)');
    view.unmount();
  });

  it('checks the day again when its visits change, and says nothing on a day without problems', async () => {
    const view = renderDaySchedule({ role: 'REGULAR_USER' });
    await screen.findByRole('region', { name: 'Problems on this day' });
    // What a moved visit, an arrival time or an applied route invalidates: the day's lists.
    fake.issues = [];
    await act(() => view.services.queryClient.invalidateQueries({ queryKey: appointmentQueries.lists() }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Problems on this day' })).toBeNull());
    expect(issueReads()).toHaveLength(2);
    expect(screen.queryAllByTestId('block-rule-problem')).toEqual([]);
    view.unmount();
  });

  it('folds the hard problems past the first five', async () => {
    const user = userEvent.setup();
    fake.issues = [1, 2, 3, 4, 5, 6, 7].map((n) => ({ rule: 'spacing' as const, hard: true, appointment_ids: [n], message: `Problem ${n}.` }));
    const view = renderDaySchedule();
    const banner = await screen.findByRole('region', { name: 'Problems on this day' });
    expect(within(banner).getByRole('heading')).toHaveTextContent('7 problems on this day');
    expect(within(banner).getByTestId('day-issues-hard')).toHaveTextContent('Problem 1.Open the visitProblem 2.Open the visitProblem 3.Open the visitProblem 4.Open the visitProblem 5.Open the visit');
    const more = within(banner).getByTestId('day-issues-more');
    expect(more).not.toHaveAttribute('open');
    await user.click(within(more).getByText('and 2 more'));
    expect(within(more).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Problem 6.Open the visit', 'Problem 7.Open the visit']);
    expect(within(banner).queryByTestId('day-issues-soft')).toBeNull();
    view.unmount();
  });

  it('is not asked for a practitioner', async () => {
    const view = renderDaySchedule({ role: 'PRACTITIONER' });
    await screen.findAllByTestId('schedule-block');
    expect(issueReads()).toEqual([]);
    expect(screen.queryByRole('region', { name: 'Problems on this day' })).toBeNull();
    view.unmount();
  });

  it('says each visit’s problems under it on a phone', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query === '(max-width: 767px)', media: query, addEventListener: () => {}, removeEventListener: () => {}, addListener: () => {}, removeListener: () => {}, onchange: null, dispatchEvent: () => false,
    }));
    const view = renderDaySchedule();
    const agenda = await screen.findByTestId('day-agenda');
    await waitFor(() => expect(within(agenda).getAllByTestId('block-rule-problem')).toHaveLength(4));
    const dora = within(agenda).getAllByTestId('schedule-block').find((block) => block.textContent?.includes('Dora Ellis'))!;
    expect(within(dora).getByTestId('block-rule-problem')).toHaveTextContent(TOO_FAR);
    expect(screen.getByRole('region', { name: 'Problems on this day' })).toBeInTheDocument();
    view.unmount();
  });
});

describe('the day’s open visits on the day schedule', () => {
  const openVisit = (id: number, client: string) => ({
    id, client: { id: 20 + id, name: client }, appointment_type: { id: 3, name: 'Personal care', duration: 45 }, date: '2026-11-25',
    window_start: '07:30', window_end: '09:00', duration_minutes: 45, reason: 'New in the care plan', care_plan_id: 51, notes: null, created_at: '2026-11-20T00:00:00Z',
  });

  it('says how many need a practitioner, whose, and where to fill them; asks for that day only', async () => {
    server.use(http.get(api('/open_visits'), () => HttpResponse.json({ open_visits: [openVisit(1, 'Ann Bell'), openVisit(2, 'Carl Dunn')] })));
    const view = renderDaySchedule();
    const notice = await screen.findByTestId('open-visits-notice');
    expect(notice).toHaveTextContent('2 open visits on this day need a practitioner (Ann Bell, Carl Dunn): fill them in Open visits.');
    expect(within(notice).getByRole('link', { name: 'fill them in Open visits' })).toHaveAttribute('href', '/open-visits');
    expect(received.filter((request) => request.path === '/api/open_visits').map((request) => request.search)).toContain('?start_date=2026-11-25&end_date=2026-11-25');
    view.unmount();
  });

  it('says nothing on a day without any, and is not asked for a practitioner', async () => {
    const view = renderDaySchedule();
    await screen.findAllByTestId('schedule-block');
    expect(screen.queryByTestId('open-visits-notice')).toBeNull();
    view.unmount();
    const asked = () => received.filter((request) => request.path === '/api/open_visits').length;
    const askedByStaff = asked();
    expect(askedByStaff).toBeGreaterThan(0);
    const practitioner = renderDaySchedule({ role: 'PRACTITIONER' });
    await screen.findAllByTestId('schedule-block');
    expect(asked()).toBe(askedByStaff);
    practitioner.unmount();
  });
});
