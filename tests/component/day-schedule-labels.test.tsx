// The day schedule's words for every visit: a short visit (15 minutes) is too narrow on its lane for its time and
// name, so it carries them in a popover and its accessible name; on a phone the day is a list per practitioner. A
// visit booked while its practitioner is on leave is marked, on the lanes and on a phone. Each half of a two-carer
// visit says "with" the other practitioner, with the two-carer mark.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { at } from '../../src/testing/optimizations';
import { server } from './support/fakeApi';
import { useFakeApi } from './support/harness';
import { freshFake, PAT, renderDaySchedule, SAM, serveRoutes, type RoutesFake } from './support/routesFakeApi';
import { makeAppointment } from './support/fixtures';

useFakeApi();
let fake: RoutesFake;
beforeEach(() => {
  fake = freshFake();
  // Bert Smith's visit (2) is 15 minutes: 10:30–10:45.
  fake.visits.find((visit) => visit.id === 2)!.ends_at = at('10:45');
  serveRoutes(server, fake);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const block = (name: string) => screen.getAllByTestId('schedule-block').find((button) => button.textContent?.includes(name))!;

describe('the day schedule', () => {
  it('gives a 15-minute visit its time, client and type in a popover and its accessible name instead of cut letters', async () => {
    const view = renderDaySchedule();
    await screen.findAllByTestId('schedule-block');
    const bert = block('Bert Smith');
    expect(bert).toHaveAccessibleName('10:30 Bert Smith (Home visit)');
    expect(bert.title).toMatch(/^10:30–10:45 Bert Smith \(Home visit\)/);
    // Nothing is cut inside the block: its only words are the popover's, shown on hover and focus, and they are its
    // name word for word (WCAG 2.5.3 with the popover shown: a block focused from the keyboard shows it).
    const popover = within(bert).getByRole('tooltip', { hidden: true });
    expect(popover.textContent).toBe(bert.getAttribute('aria-label'));
    expect(bert).toHaveTextContent(/^10:30 Bert Smith \(Home visit\)$/);
    expect(popover).toHaveClass('hidden', 'group-hover:block', 'group-focus-visible:block');
    // A visit long enough keeps its words inside.
    expect(block('Margaret Jones')).toHaveAccessibleName('09:00 Margaret Jones (Home visit)');
    expect(within(block('Margaret Jones')).queryByRole('tooltip', { hidden: true })).toBeNull();
    view.unmount();
  });

  it('shows a two-carer visit in both practitioners’ lanes, each saying who it is with', async () => {
    const margaret = fake.visits.find((visit) => visit.id === 1)!;
    const withSam = makeAppointment({ ...margaret, id: 7, practitioner: SAM, partner: { appointment_id: 1, practitioner_id: PAT.id, practitioner_name: 'Pat Nguyen' } });
    margaret.partner = { appointment_id: 7, practitioner_id: SAM.id, practitioner_name: 'Sam Lee' };
    fake.visits.push(withSam);
    const view = renderDaySchedule();
    await screen.findAllByTestId('schedule-block');
    const [pat, sam] = screen.getAllByTestId('schedule-lane');
    const inLane = (lane: HTMLElement) => within(lane).getAllByTestId('schedule-block').find((button) => button.textContent?.includes('Margaret Jones'))!;
    expect(within(inLane(pat)).getByTestId('two-carer')).toHaveTextContent('Two-carer visit with Sam Lee');
    expect(inLane(pat)).toHaveAccessibleName('09:00 Margaret Jones Two-carer visit with Sam Lee (Home visit)');
    expect(inLane(sam)).toHaveAccessibleName('09:00 Margaret Jones Two-carer visit with Pat Nguyen (Home visit)');
    expect(inLane(sam).title).toContain('Two-carer visit with Pat Nguyen');
    // Only the pair carries the mark.
    expect(screen.getAllByTestId('two-carer')).toHaveLength(2);
    view.unmount();
  });

  it('marks the visits booked while their practitioner is on leave, and counts them under the lane’s name', async () => {
    const travel = (id: number, onLeave: boolean) => ({
      appointment_id: id, practitioner_id: 7, previous_appointment_id: null, travel_seconds_from_previous: null, travel_metres: null,
      gap_seconds: null, needs_more_seconds: 0, on_leave: onLeave,
    });
    fake.travel = [travel(1, false), travel(2, true)];
    const view = renderDaySchedule();
    await waitFor(() => expect(screen.getAllByTestId('block-on-leave')).toHaveLength(1));
    expect(block('Bert Smith')).toHaveAccessibleName('10:30 Bert Smith On leave (Home visit), booked while the practitioner is on leave');
    expect(within(block('Bert Smith')).getByTestId('block-on-leave')).toHaveTextContent('On leave');
    expect(block('Bert Smith').title).toMatch(/Booked while the practitioner is on leave: reassign it\./);
    expect(within(block('Margaret Jones')).queryByTestId('block-on-leave')).toBeNull();
    const [pat, sam] = screen.getAllByTestId('schedule-lane');
    expect(within(pat).getByTestId('lane-on-leave')).toHaveTextContent('1 visit booked while on leave');
    expect(within(sam).queryByTestId('lane-on-leave')).toBeNull();
    view.unmount();

    // On a phone, in words under the visit.
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query === '(max-width: 767px)', media: query, addEventListener: () => {}, removeEventListener: () => {}, addListener: () => {}, removeListener: () => {}, onchange: null, dispatchEvent: () => false,
    }));
    const phone = renderDaySchedule();
    const agenda = await screen.findByTestId('day-agenda');
    await waitFor(() => expect(within(agenda).getByTestId('block-on-leave')).toHaveTextContent('Booked while the practitioner is on leave'));
    expect(within(agenda).getByTestId('block-on-leave').closest('button')).toHaveTextContent(/Bert Smith/);
    phone.unmount();
  });

  it('on a phone, lists each practitioner’s visits one under the other with their times instead of the wide lanes', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query === '(max-width: 767px)', media: query, addEventListener: () => {}, removeEventListener: () => {}, addListener: () => {}, removeListener: () => {}, onchange: null, dispatchEvent: () => false,
    }));
    const view = renderDaySchedule();
    const agenda = await screen.findByTestId('day-agenda');
    expect(screen.queryByTestId('day-schedule')).toBeNull();
    const lanes = within(agenda).getAllByTestId('schedule-lane');
    expect(lanes.map((lane) => lane.getAttribute('aria-label'))).toEqual(['Pat Nguyen', 'Sam Lee']);
    await waitFor(() => expect(within(lanes[0]).getAllByTestId('schedule-block').map((item) => item.textContent)).toEqual([
      '09:00–10:00Margaret JonesHome visit', '10:30–10:45Bert SmithHome visit', '14:00–14:45Dora EllisHome visit',
    ]));
    view.unmount();
  });
});
