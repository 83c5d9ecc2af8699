// The day schedule's travel warnings (on the visit blocks, in the one-day list and in the appointment modal) and moving
// a visit by dragging its block to another time and/or practitioner's lane. The day is Wed 25 Nov 2026 in Brisbane:
// Pat Nguyen (7) has visits 1 (09:00–10:00), 2 (10:30–11:00) and 4 (14:00–14:45), Sam Lee (8) visits 3 (12:00) and 5 (15:00).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AppointmentDetailsModal } from '../../src/features/schedule/AppointmentDetailsModal';
import AppointmentsPage from '../../src/features/schedule/AppointmentsPage';
import { findRoute } from '../../src/router/routeTable';
import { RUN_DAY } from '../../src/testing/optimizations';
import type { Role } from '../../src/api/types';
import { received as sent, server } from './support/fakeApi';
import { renderWithServices, useFakeApi } from './support/harness';
import { freshFake, refusal, renderDaySchedule, serveRoutes, type RoutesFake } from './support/routesFakeApi';

useFakeApi();
let fake: RoutesFake;
// The visits may be moved: it is the evening before their day (only the future moves).
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-24T08:00:00Z'), shouldAdvanceTime: true });
});
afterEach(() => {
  vi.useRealTimers();
});
beforeEach(() => {
  fake = freshFake();
  serveRoutes(server, fake);
});

const moves = () => sent.filter((request) => request.method === 'PATCH' && /\/move$/.test(request.path));
const WARNING = 'Not enough travel time (needs 40 min)';

/** Bert Smith's visit (2, 10:30) is 30 minutes after Margaret Jones's ends, and the travel between them is 40 minutes. */
function warnBert() {
  fake.travel = [
    { appointment_id: 1, practitioner_id: 7, previous_appointment_id: null, travel_seconds_from_previous: null, travel_metres: null, gap_seconds: null, needs_more_seconds: 0, on_leave: false },
    { appointment_id: 2, practitioner_id: 7, previous_appointment_id: 1, travel_seconds_from_previous: 2400, travel_metres: 30_000, gap_seconds: 1800, needs_more_seconds: 600, on_leave: false },
    { appointment_id: 4, practitioner_id: 7, previous_appointment_id: 2, travel_seconds_from_previous: 600, travel_metres: 8000, gap_seconds: 10_800, needs_more_seconds: 0, on_leave: false },
  ];
}

const block = (name: string) => screen.getAllByTestId('schedule-block').find((button) => button.textContent?.includes(name))!;
const lane = (name: string) => screen.getByRole('listitem', { name });

/**
 * jsdom lays nothing out: each lane's strip is 720 px wide (06:00–18:00, so a pixel is a minute) and 56 px high,
 * one under the other 60 px apart, in the order they are drawn.
 */
function layOutLanes() {
  screen.getAllByTestId('schedule-lane').forEach((item, index) => {
    const track = item.children[1] as HTMLElement;
    const top = index * 60;
    vi.spyOn(track, 'getBoundingClientRect').mockReturnValue({ left: 0, right: 720, width: 720, top, bottom: top + 56, height: 56, x: 0, y: top, toJSON: () => ({}) });
  });
}

/** Presses a block at (x, y), moves the pointer to each point in turn and, unless `release` is false, lets go there. */
function dragBlock(element: HTMLElement, from: [number, number], path: [number, number][], release = true, pointerType = 'mouse') {
  const at = ([clientX, clientY]: [number, number]) => ({ pointerId: 1, isPrimary: true, button: 0, clientX, clientY, pointerType });
  fireEvent.pointerDown(element, at(from));
  for (const point of path) fireEvent.pointerMove(element, at(point));
  if (release) {
    fireEvent.pointerUp(element, at(path[path.length - 1] ?? from));
    fireEvent.click(element);
  }
}

async function scheduleAs(role: Role) {
  const view = renderDaySchedule({ role });
  await screen.findAllByTestId('schedule-block');
  layOutLanes();
  return view;
}

describe('travel warnings', () => {
  it('flag the later visit on the schedule, with the text as its name and tooltip', async () => {
    warnBert();
    const view = await scheduleAs('REGULAR_USER');
    await waitFor(() => expect(block('Bert Smith')).toHaveAccessibleName(`10:30 Bert Smith (Home visit), ${WARNING}`));
    expect(block('Bert Smith').title).toContain(WARNING);
    expect(within(block('Bert Smith')).getByTestId('block-travel-warning')).toBeInTheDocument();
    // Only that visit: the first of the day and one with time to spare have none.
    expect(screen.getAllByTestId('block-travel-warning')).toHaveLength(1);
    expect(block('Margaret Jones')).toHaveAccessibleName('09:00 Margaret Jones (Home visit)');
    expect(sent.filter((request) => request.path === '/api/appointments/travel').map((request) => request.search)).toContain(`?date=${RUN_DAY}`);
    view.unmount();
  });

  it('show in the list row when the list shows one day', async () => {
    warnBert();
    window.history.replaceState(null, '', `/appointments?view=list&start=${RUN_DAY}&end=${RUN_DAY}`);
    const view = renderWithServices(<AppointmentsPage route={findRoute('/appointments')!} />);
    const row = await screen.findByRole('row', { name: /Bert Smith/ });
    await waitFor(() => expect(within(row).getByTestId('row-travel-warning')).toHaveAttribute('title', WARNING));
    expect(within(row).getByText(WARNING)).toBeInTheDocument();
    expect(screen.getAllByTestId('row-travel-warning')).toHaveLength(1);
    view.unmount();
  });

  it('are said in words in the appointment modal, with the gap the visit has', async () => {
    warnBert();
    const view = renderWithServices(<AppointmentDetailsModal appointmentId={2} onClose={() => {}} />, { role: 'PRACTITIONER' });
    expect(await screen.findByTestId('travel-warning')).toHaveTextContent(`${WARNING}: 30 min between the end of the visit before and this arrival.`);
    view.unmount();
  });

  it('say two overlapping visits overlap, naming the other visit, on the schedule, in the list and in the modal', async () => {
    // Bert (2) moved to 09:30 while Margaret (1) is there 09:00–10:00; they are at the same place, so no travel is short.
    const bert = fake.visits.find((visit) => visit.id === 2)!;
    Object.assign(bert, { starts_at: `${RUN_DAY}T09:30:00+10:00`, ends_at: `${RUN_DAY}T10:00:00+10:00`, arrive_at: `${RUN_DAY}T09:30:00+10:00` });
    fake.travel = [
      { appointment_id: 1, practitioner_id: 7, previous_appointment_id: null, travel_seconds_from_previous: null, travel_metres: null, gap_seconds: null, needs_more_seconds: 0, on_leave: false },
      { appointment_id: 2, practitioner_id: 7, previous_appointment_id: 1, travel_seconds_from_previous: 0, travel_metres: 0, gap_seconds: -1800, needs_more_seconds: 0, on_leave: false },
      { appointment_id: 4, practitioner_id: 7, previous_appointment_id: 2, travel_seconds_from_previous: 600, travel_metres: 8000, gap_seconds: 14_400, needs_more_seconds: 0, on_leave: false },
    ];
    const view = await scheduleAs('REGULAR_USER');
    await waitFor(() => expect(block('Bert Smith')).toHaveAccessibleName("09:30 Bert Smith (Home visit), Overlaps Margaret Jones's visit 09:00–10:00"));
    expect(block('Margaret Jones')).toHaveAccessibleName("09:00 Margaret Jones (Home visit), Overlaps Bert Smith's visit 09:30–10:00");
    expect(block('Bert Smith').title).not.toMatch(/travel time/);
    view.unmount();

    window.history.replaceState(null, '', `/appointments?view=list&start=${RUN_DAY}&end=${RUN_DAY}`);
    const list = renderWithServices(<AppointmentsPage route={findRoute('/appointments')!} />);
    const row = await screen.findByRole('row', { name: /Bert Smith/ });
    await waitFor(() => expect(within(row).getByTestId('row-travel-warning')).toHaveAttribute('title', "Overlaps Margaret Jones's visit 09:00–10:00"));
    list.unmount();

    const modal = renderWithServices(<AppointmentDetailsModal appointmentId={2} onClose={() => {}} />, { role: 'PRACTITIONER' });
    expect(await screen.findByTestId('travel-warning')).toHaveTextContent("Overlaps Margaret Jones's visit 09:00–10:00");
    modal.unmount();
  });

  it('are absent from a visit whose gap covers the travel', async () => {
    warnBert();
    const view = renderWithServices(<AppointmentDetailsModal appointmentId={4} onClose={() => {}} />);
    await screen.findByTestId('route-controls');
    await waitFor(() => expect(sent.some((request) => request.path === '/api/appointments/travel')).toBe(true));
    expect(screen.queryByTestId('travel-warning')).toBeNull();
    view.unmount();
  });
});


describe('dragging a visit on the day schedule', () => {
  it('moves it to the lane and 5-minute time it is dropped on, showing where while dragging and saying what changed', async () => {
    const view = await scheduleAs('REGULAR_USER');
    const bert = block('Bert Smith');
    // From 10:30 (x 270) in Pat's lane 47 px right (11:17, snapped to 11:15) and down into Sam's lane.
    dragBlock(bert, [280, 20], [[290, 24], [327, 80]], false);
    const outline = within(lane('Sam Lee')).getByTestId('drag-outline');
    expect(outline).toHaveTextContent('11:15');
    expect(screen.getByRole('status')).toHaveTextContent('Drop to move to Sam Lee at 11:15.');
    expect(within(lane('Pat Nguyen')).queryByTestId('drag-outline')).toBeNull();

    fireEvent.pointerUp(bert, { pointerId: 1, isPrimary: true, button: 0, clientX: 327, clientY: 80 });
    fireEvent.click(bert);
    await waitFor(() => expect(moves()).toHaveLength(1));
    expect(moves()[0]).toMatchObject({ path: '/api/appointments/2/move', body: { practitioner_id: 8, starts_at: '2026-11-25T11:15:00+10:00' } });
    expect(await screen.findByText('Visit with Bert Smith moved to Sam Lee, 25 Nov 2026 11:15.')).toBeInTheDocument();
    // The day is read again: the visit is in Sam's lane, and the drop did not open it.
    await waitFor(() => expect(within(lane('Sam Lee')).getByRole('button', { name: /^11:15 Bert Smith/ })).toBeInTheDocument());
    expect(within(lane('Pat Nguyen')).queryByRole('button', { name: /Bert Smith/ })).toBeNull();
    expect(screen.queryByTestId('drag-outline')).toBeNull();
    expect(screen.queryByTestId('appointment-details-modal')).toBeNull();
    view.unmount();
  });

  it('does not pick up a visit that has started or starts within 30 minutes, and says why', async () => {
    vi.setSystemTime(new Date('2026-11-24T23:10:00Z')); // 09:10 in Brisbane: Margaret Jones's visit (09:00) has started.
    const view = await scheduleAs('ADMIN');
    const margaret = block('Margaret Jones');
    expect(margaret).toHaveAttribute('title', expect.stringContaining('This visit has started (or starts within 30 minutes): its time and practitioner stay as they are.'));
    dragBlock(margaret, [190, 20], [[200, 24], [250, 30]], false);
    expect(screen.queryByTestId('drag-outline')).toBeNull();
    fireEvent.pointerUp(margaret, { pointerId: 1, isPrimary: true, button: 0, clientX: 250, clientY: 30 });
    expect(moves()).toHaveLength(0);
    // Bert Smith's (10:30) still moves.
    expect(block('Bert Smith')).not.toHaveAttribute('data-fixed');
    dragBlock(block('Bert Smith'), [280, 20], [[290, 24], [330, 24]], false);
    expect(within(lane('Pat Nguyen')).getByTestId('drag-outline')).toBeInTheDocument();
    view.unmount();
  });

  it('sends only the time when the visit stays in its lane', async () => {
    const view = await scheduleAs('ADMIN');
    dragBlock(block('Margaret Jones'), [190, 20], [[250, 30]]); // 09:00 → 10:00
    await waitFor(() => expect(moves()).toHaveLength(1));
    expect(moves()[0].body).toEqual({ starts_at: '2026-11-25T10:00:00+10:00' });
    view.unmount();
  });

  it('a click without moving opens the visit and moves nothing; Escape puts a dragged block back', async () => {
    const user = userEvent.setup();
    const view = await scheduleAs('ADMIN');
    dragBlock(block('Dora Ellis'), [500, 20], [[503, 21]]);
    expect(await screen.findByTestId('appointment-details-modal')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('appointment-details-modal')).toBeNull());

    const dora = block('Dora Ellis');
    dragBlock(dora, [500, 20], [[560, 80]], false);
    expect(screen.getByTestId('drag-outline')).toBeInTheDocument();
    act(() => {
      fireEvent.keyDown(document, { key: 'Escape' });
    });
    expect(screen.queryByTestId('drag-outline')).toBeNull();
    fireEvent.pointerUp(dora, { pointerId: 1, isPrimary: true, button: 0, clientX: 560, clientY: 80 });
    fireEvent.click(dora);
    expect(screen.queryByTestId('appointment-details-modal')).toBeNull();
    expect(moves()).toHaveLength(0);
    view.unmount();
  });

  it('says why when the server refuses the move, and the visit stays where it was', async () => {
    fake.move = () => refusal(422, 'practitioner_id: Sam Lee does not deliver Home visit; choose a practitioner who does (Settings → Practitioners → skills).');
    const view = await scheduleAs('ADMIN');
    dragBlock(block('Bert Smith'), [280, 20], [[280, 80]]);
    expect(await screen.findByText(/Sam Lee does not deliver Home visit/)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('drag-outline')).toBeNull());
    expect(within(lane('Pat Nguyen')).getByRole('button', { name: /^10:30 Bert Smith/ })).toBeInTheDocument();
    view.unmount();
  });

  it('with a finger, a swipe scrolls and moves nothing; holding the block still first picks it up', async () => {
    const view = await scheduleAs('ADMIN');
    dragBlock(block('Bert Smith'), [280, 20], [[300, 20], [340, 80]], true, 'touch');
    expect(screen.queryByTestId('drag-outline')).toBeNull();
    expect(moves()).toHaveLength(0);

    const bert = block('Bert Smith');
    const finger = (clientX: number, clientY: number) => ({ pointerId: 2, isPrimary: true, button: 0, clientX, clientY, pointerType: 'touch' });
    fireEvent.pointerDown(bert, finger(280, 20));
    await new Promise((resolve) => setTimeout(resolve, 400));
    fireEvent.pointerMove(bert, finger(300, 20));
    fireEvent.pointerMove(bert, finger(340, 80));
    expect(within(lane('Sam Lee')).getByTestId('drag-outline')).toHaveTextContent('11:30');
    fireEvent.pointerUp(bert, finger(340, 80));
    await waitFor(() => expect(moves()).toHaveLength(1));
    expect(moves()[0].body).toEqual({ practitioner_id: 8, starts_at: '2026-11-25T11:30:00+10:00' });
    view.unmount();
  });

  it('a practitioner cannot drag: the press is a click that opens the visit', async () => {
    const view = await scheduleAs('PRACTITIONER');
    dragBlock(block('Bert Smith'), [280, 20], [[300, 40], [327, 80]], false);
    expect(screen.queryByTestId('drag-outline')).toBeNull();
    fireEvent.pointerUp(block('Bert Smith'), { pointerId: 1, isPrimary: true, button: 0, clientX: 327, clientY: 80 });
    fireEvent.click(block('Bert Smith'));
    expect(await screen.findByTestId('appointment-details-modal')).toBeInTheDocument();
    expect(moves()).toHaveLength(0);
    view.unmount();
  });
});
