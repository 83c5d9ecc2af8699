// "Your day changed" on a practitioner's run sheet: the first look at a day says nothing; once a re-plan has given
// them a visit, taken one off and moved another, the next look lists each, until "Got it"; staff never see it.
import { beforeEach, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DayChangedNotice } from '../../src/features/schedule/DayChangedNotice';
import type { AppointmentSummary } from '../../src/entities/appointments/api';
import { makeAppointment } from './support/fixtures';
import { renderWithServices, useFakeApi } from './support/harness';

useFakeApi();
beforeEach(() => localStorage.clear());

const ZONE = 'Australia/Brisbane';
const DAY = '2026-11-24';
const visit = (id: number, client: string, arriveAt: string) => makeAppointment({
  id, starts_at: arriveAt, ends_at: arriveAt, arrive_at: arriveAt, client: { id: 100 + id, full_name: client, time_zone: ZONE, availability: [] },
}) as unknown as AppointmentSummary;
// Brisbane is UTC+10: 08:50, 11:00 and 13:00 that Tuesday.
const MARGARET = visit(1, 'Margaret Jones', '2026-11-23T22:50:00Z');
const BERT = visit(2, 'Bert Smith', '2026-11-24T01:00:00Z');
const BERT_LATER = visit(2, 'Bert Smith', '2026-11-24T02:00:00Z');
const CORA = visit(3, 'Cora Bell', '2026-11-24T03:00:00Z');

const look = (appointments: AppointmentSummary[], role: 'PRACTITIONER' | 'REGULAR_USER' = 'PRACTITIONER') =>
  renderWithServices(<DayChangedNotice appointments={appointments} day={DAY} timeZone={ZONE} />, { role });

describe('Your day changed', () => {
  it('lists what changed since the practitioner last looked, until they say Got it', async () => {
    const user = userEvent.setup();
    look([MARGARET, BERT]).unmount();
    expect(screen.queryByRole('status', { name: 'Your day changed' })).not.toBeInTheDocument();

    // A re-plan: Margaret went to a colleague, Bert moved an hour, Cora is new.
    const after = look([BERT_LATER, CORA]);
    const notice = screen.getByRole('status', { name: 'Your day changed' });
    expect(within(notice).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Moved: Bert Smith from 11:00 to 12:00',
      'Added: Cora Bell at 13:00',
      'Taken off your day: Margaret Jones at 08:50',
    ]);
    await user.click(within(notice).getByRole('button', { name: 'Got it' }));
    expect(screen.queryByRole('status', { name: 'Your day changed' })).not.toBeInTheDocument();
    after.unmount();

    look([BERT_LATER, CORA]);
    expect(screen.queryByRole('status', { name: 'Your day changed' })).not.toBeInTheDocument();
  });

  it('is the practitioner’s own: the office never sees it', () => {
    look([MARGARET, BERT], 'REGULAR_USER').unmount();
    look([CORA], 'REGULAR_USER');
    expect(screen.queryByRole('status', { name: 'Your day changed' })).not.toBeInTheDocument();
  });
});
