// Visit verification (EVV): this week asked for, the summary saying which punctuality came from check-ins and which
// from planned times, each visit's in and out with places, distances, the far flag, status and reason; the CSV exactly
// as the table (coordinates and negative minutes as numbers); durations per type and missed visits by reason; the
// table sorted and paged by the server, the CSV asking for every row in that order; the visit filters sent; a refused
// range said in words.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { Temporal } from 'temporal-polyfill';
import { api, server } from './support/fakeApi';
import { renderPage, useFakeApi } from './support/harness';
import VisitVerificationReport from '../../src/features/reports/VisitVerificationReport';
import { captureDownloads, reportFilterHandlers, reportRequests } from './support/reports';

useFakeApi();

const today = () => Temporal.Now.plainDateISO('Australia/Brisbane');
const row = (overrides: Record<string, unknown>) => ({
  appointment_id: 1, client_id: 11, client_name: 'Cora Bell', practitioner_id: 7, practitioner_name: 'Pat Nguyen', appointment_type_name: 'Home visit',
  starts_at: '2030-03-04T23:00:00.000Z', ends_at: '2030-03-04T23:45:00.000Z', planned_arrival_at: '2030-03-04T23:00:00.000Z', status: 'not_started',
  actual_in_at: null, in_lat: null, in_lng: null, in_distance_m: null, far_from_client: false,
  actual_out_at: null, out_lat: null, out_lng: null, out_distance_m: null, reason: null, reason_text: null,
  actual_seconds: null, booked_seconds: 2700, punctual: true, punctuality_from: 'planned', on_my_way_at: null, not_verified: false,
  recorded_by: null, arrival_corrected_by: null, arrival_corrected_at: null, ...overrides,
});
const REPORT = {
  rows: [
    row({
      appointment_id: 1, status: 'done', on_my_way_at: '2030-03-04T22:50:00.000Z', recorded_by: "Practitioner's phone", actual_in_at: '2030-03-04T23:10:00.000Z', in_lat: -27.4665, in_lng: 153.047, in_distance_m: 56,
      actual_out_at: '2030-03-05T00:00:00.000Z', out_lat: -27.467, out_lng: 153.047, out_distance_m: 0, actual_seconds: 3000, punctual: true, punctuality_from: 'check_in',
    }),
    row({
      appointment_id: 2, client_name: 'Dale Ray', starts_at: '2030-03-05T01:00:00.000Z', ends_at: '2030-03-05T02:00:00.000Z', booked_seconds: 3600,
      status: 'done', recorded_by: "Practitioner's phone (Arrived); Alex Morgan (Done)", actual_in_at: '2030-03-05T02:00:00.000Z', in_lat: -27.457, in_lng: 153.047, in_distance_m: 1112, far_from_client: true,
      actual_out_at: '2030-03-05T02:30:00.000Z', actual_seconds: 1800, punctual: false, punctuality_from: 'check_in',
    }),
    row({ appointment_id: 3, client_name: 'Eve Lane', starts_at: '2030-03-05T03:00:00.000Z', ends_at: '2030-03-05T03:45:00.000Z', status: 'could_not_attend', reason: 'other', reason_text: 'Gate locked, dog out', punctual: null, punctuality_from: null }),
    row({ appointment_id: 4, client_name: 'Fay Hill', starts_at: '2030-03-05T05:00:00.000Z', ends_at: '2030-03-05T05:45:00.000Z' }),
    // Over without a check-in, its arrival corrected by the office the next day.
    row({
      appointment_id: 5, client_name: 'Gus Ward', starts_at: '2030-03-05T06:00:00.000Z', ends_at: '2030-03-05T06:45:00.000Z', punctual: null, punctuality_from: null,
      not_verified: true, arrival_corrected_by: 'Alex Morgan', arrival_corrected_at: '2030-03-06T00:30:00.000Z',
    }),
  ],
  meta: { page: 1, per_page: 50, total: 5 },
  summary: {
    visits: 5, not_started: 2, on_my_way: 0, arrived: 0, done: 2, could_not_attend: 1, far_from_client: 1, not_verified: 1,
    checked_in: 2, checked_in_on_time: 1, planned_only: 1, planned_punctual: 1, punctuality: 0.5, planned_punctuality: 1,
  },
  durations: [
    { appointment_type_id: 1, appointment_type_name: 'Home visit', visits: 2, booked_seconds: 3150, actual_seconds: 2400, difference_seconds: -750 },
  ],
  missed: [{ reason: 'client_not_home', visits: 0 }, { reason: 'refused', visits: 0 }, { reason: 'hospital', visits: 0 }, { reason: 'other', visits: 1 }],
};

const requests = () => reportRequests('visit-verification');
const figures = () => within(screen.getByTestId('report-summary')).getAllByRole('definition').map((figure) => figure.textContent);
const cells = (tableRow: HTMLElement) => within(tableRow).getAllByRole('cell').map((cell) => cell.textContent);

let saved: Blob[] = [];
beforeEach(() => {
  saved = captureDownloads();
  server.use(...reportFilterHandlers(), http.get(api('/reports/visit-verification'), () => HttpResponse.json(REPORT)));
});
afterEach(() => vi.restoreAllMocks());

describe('visit verification', () => {
  it('asks for this week and shows the summary, each visit as recorded, durations and missed visits', async () => {
    renderPage(VisitVerificationReport, { path: '/reports/visit-verification', role: 'ADMIN' });
    const table = await screen.findByRole('table', { name: 'Visit verification' });
    const monday = today().subtract({ days: today().dayOfWeek - 1 });
    const first = requests()[0];
    expect([first.get('start_date'), first.get('end_date')]).toEqual([monday.toString(), monday.add({ days: 6 }).toString()]);
    // The headline from check-ins alone (1 of 2), the plan's figure apart.
    expect(figures()).toEqual(['5', '2', '1', '1', '50.0%', '1 of 2', '1', '1 of 1', '2']);
    expect(screen.getByText(/within the visit’s tolerance of its planned arrival/)).toBeInTheDocument();
    expect(within(table).getAllByRole('row').slice(1).map(cells)).toEqual([
      ['1', 'Cora Bell', 'Pat Nguyen', 'Home visit', '05 Mar 2030 09:00', '05 Mar 2030 09:45', 'Done', "Practitioner's phone", '05 Mar 2030 08:50',
        '05 Mar 2030 09:10', '-27.466500', '153.047000', '56', 'No', '05 Mar 2030 10:00', '-27.467000', '153.047000', '0', '45', '50', 'Yes', 'Check-in', '', ''],
      ['2', 'Dale Ray', 'Pat Nguyen', 'Home visit', '05 Mar 2030 11:00', '05 Mar 2030 12:00', 'Done', "Practitioner's phone (Arrived); Alex Morgan (Done)", '',
        '05 Mar 2030 12:00', '-27.457000', '153.047000', '1112', 'Yes', '05 Mar 2030 12:30', '', '', '', '60', '30', 'No', 'Check-in', '', ''],
      ['3', 'Eve Lane', 'Pat Nguyen', 'Home visit', '05 Mar 2030 13:00', '05 Mar 2030 13:45', 'Could not attend', '', '', '', '', '', '', '', '', '', '', '', '45', '', '', '', 'Other: Gate locked, dog out', ''],
      ['4', 'Fay Hill', 'Pat Nguyen', 'Home visit', '05 Mar 2030 15:00', '05 Mar 2030 15:45', 'Not started', '', '', '', '', '', '', '', '', '', '', '', '45', '', 'Yes', 'Planned times', '', ''],
      ['5', 'Gus Ward', 'Pat Nguyen', 'Home visit', '05 Mar 2030 16:00', '05 Mar 2030 16:45', 'Not started', '', '', '', '', '', '', '', '', '', '', '', '45', '', 'Not verified', '', '',
        'Arrival corrected by Alex Morgan on 06 Mar 2030'],
    ]);
    const durations = screen.getByRole('table', { name: 'Visit duration per appointment type' });
    expect(within(durations).getAllByRole('row').slice(1).map(cells)).toEqual([['Home visit', '2', '53', '40', '-13']]);
    const missed = screen.getByRole('table', { name: 'Missed visits by reason' });
    expect(within(missed).getAllByRole('row').slice(1).map(cells)).toEqual([['Client not home', '0'], ['Refused', '0'], ['In hospital', '0'], ['Other', '1']]);
  });

  it('sorts on the server and downloads every visit in that order as the EVV export', async () => {
    // The fake server answers by client name, last first, when asked so.
    server.use(http.get(api('/reports/visit-verification'), ({ request }) => {
      const params = new URL(request.url).searchParams;
      const descending = params.get('sort') === 'client' && params.get('direction') === 'desc';
      return HttpResponse.json(descending ? { ...REPORT, rows: [...REPORT.rows].reverse() } : REPORT);
    }));
    const user = userEvent.setup();
    renderPage(VisitVerificationReport, { path: '/reports/visit-verification', role: 'ADMIN' });
    const table = await screen.findByRole('table', { name: 'Visit verification' });
    expect([requests()[0].get('sort'), requests()[0].get('direction'), requests()[0].get('page'), requests()[0].get('per_page')]).toEqual(['starts_at', 'asc', '1', '50']);
    expect(screen.getByTestId('pagination-summary')).toHaveTextContent('1–5 of 5');
    await user.click(within(table).getByRole('button', { name: /Client/ }));
    await user.click(within(table).getByRole('button', { name: /Client/ }));
    await waitFor(() => expect(within(table).getAllByRole('row')[1]).toHaveTextContent('Gus Ward'));
    await user.click(screen.getAllByRole('button', { name: 'Download CSV' })[0]);
    await waitFor(() => expect(saved).toHaveLength(1));
    // Every row: no page asked for, the same order.
    const all = requests().at(-1)!;
    expect([all.get('sort'), all.get('direction'), all.get('per_page')]).toEqual(['client', 'desc', null]);
    const lines = (await saved[0].text()).split('\r\n');
    expect(lines[0]).toBe(
      'Visit,Client,Practitioner,Type,Scheduled start,Scheduled end,Status,Recorded by,On my way,Actual in,In lat,In lng,In distance (m),Far from client,' +
      'Actual out,Out lat,Out lng,Out distance (m),Booked min,Actual min,On time,On time from,Reason,Arrival corrected',
    );
    // The export's times are ISO 8601 with the business's offset, so an auditor's tools read them without the zone.
    expect(lines.slice(1)).toEqual([
      '5,Gus Ward,Pat Nguyen,Home visit,2030-03-05T16:00:00+10:00,2030-03-05T16:45:00+10:00,Not started,,,,,,,,,,,,45,,Not verified,,,Arrival corrected by Alex Morgan on 06 Mar 2030',
      '4,Fay Hill,Pat Nguyen,Home visit,2030-03-05T15:00:00+10:00,2030-03-05T15:45:00+10:00,Not started,,,,,,,,,,,,45,,Yes,Planned times,,',
      '3,Eve Lane,Pat Nguyen,Home visit,2030-03-05T13:00:00+10:00,2030-03-05T13:45:00+10:00,Could not attend,,,,,,,,,,,,45,,,,"Other: Gate locked, dog out",',
      '2,Dale Ray,Pat Nguyen,Home visit,2030-03-05T11:00:00+10:00,2030-03-05T12:00:00+10:00,Done,Practitioner\'s phone (Arrived); Alex Morgan (Done),,2030-03-05T12:00:00+10:00,-27.457000,153.047000,1112,Yes,2030-03-05T12:30:00+10:00,,,,60,30,No,Check-in,,',
      '1,Cora Bell,Pat Nguyen,Home visit,2030-03-05T09:00:00+10:00,2030-03-05T09:45:00+10:00,Done,Practitioner\'s phone,2030-03-05T08:50:00+10:00,2030-03-05T09:10:00+10:00,-27.466500,153.047000,56,No,2030-03-05T10:00:00+10:00,-27.467000,153.047000,0,45,50,Yes,Check-in,,',
      '',
    ]);
    await user.click(screen.getAllByRole('button', { name: 'Download CSV' })[1]);
    await waitFor(() => expect(saved).toHaveLength(2));
    expect(await saved[1].text()).toBe(
      'Appointment type,Visits with in and out,Booked min (average),Actual min (average),Difference min\r\nHome visit,2,53,40,-13\r\n',
    );
  });

  it('sends the chosen practitioner and says a refused range in words', async () => {
    server.use(http.get(api('/reports/visit-verification'), ({ request }) => (new URL(request.url).searchParams.get('practitioner_ids') === '7'
      ? HttpResponse.json({ message: 'The date range is limited to 366 days (asked for 400): choose at most 366 days.' }, { status: 422 })
      : HttpResponse.json(REPORT))));
    renderPage(VisitVerificationReport, { path: `/reports/visit-verification?practitioner=7&start=${today().toString()}&end=${today().toString()}`, role: 'ADMIN' });
    expect(await screen.findByText(/limited to 366 days/)).toBeInTheDocument();
    expect(requests().at(-1)?.getAll('practitioner_ids')).toEqual(['7']);
  });
});
