// The proposal's table of changes (issue 35): the biggest moves from the agreed time first; sorted by a column's
// header (again: the other way); filtered to moves of 30 or 60 min and more, to visits given to another practitioner,
// or to one reason; a client's name shows the visit on the lanes and the map.
import { describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ProposalChanges } from '../../src/features/schedule/optimise/ProposalChanges';
import { at, makeProposal } from '../../src/testing/optimizations';

type Change = ReturnType<typeof makeProposal>['changes'][number];

const change = (id: number, client: string, agreed: string, arrives: string, moved: number, overrides: Partial<Change> = {}): Change => ({
  appointment_id: id, client_name: client, old_arrive_at: at(agreed), new_arrive_at: at(arrives),
  old_practitioner_id: 7, new_practitioner_id: 7, old_practitioner_name: 'Pat Nguyen', new_practitioner_name: 'Pat Nguyen',
  old_practitioner_profession: 'Registered Nurse', new_practitioner_profession: 'Registered Nurse', agreed_start_at: at(agreed), minutes_moved: moved,
  reasons: [{ kind: 'travel', message: "Saves 4 min of travel: travel on Pat Nguyen's day 30 → 26 min." }], ...overrides,
});

// In the proposal's order: the biggest moves first.
const CHANGES: Change[] = [
  change(1, 'Ava Burke', '09:00', '10:30', 90),
  change(2, 'Cal Dunn', '13:00', '12:15', -45, {
    new_practitioner_id: 8, new_practitioner_name: 'Sam Lee', new_practitioner_profession: 'Support Worker',
    reasons: [{ kind: 'leave', message: 'Pat Nguyen is on leave 12:00–14:00.' }],
  }),
  change(3, 'Bea Cole', '11:00', '11:20', 20, { reasons: [{ kind: 'rule-fixed', message: "Fixes: Bea Cole's visit at 11:00 is outside their availability." }] }),
  change(4, 'Dan Eve', '08:00', '08:05', 5),
];

function renderChanges() {
  const onShowVisit = vi.fn();
  render(<ProposalChanges changes={CHANGES} visits={new Map()} timeZone="Australia/Brisbane" onShowVisit={onShowVisit} />);
  const clients = () => within(screen.getByTestId('proposal-changes')).getAllByTestId('proposal-change').map((row) => within(row).getAllByRole('button')[0].textContent);
  return { user: userEvent.setup(), onShowVisit, clients };
}

describe('the changes of a proposal', () => {
  it('lists the biggest moves first, each with its minutes from the agreed time and why', () => {
    const { clients } = renderChanges();
    expect(clients()).toEqual(['Ava Burke', 'Cal Dunn', 'Bea Cole', 'Dan Eve']);
    expect(screen.getByRole('columnheader', { name: /Moved/ })).toHaveAttribute('aria-sort', 'descending');
    const rows = screen.getAllByTestId('proposal-change');
    expect(within(rows[0]).getByTestId('change-moved')).toHaveTextContent('+1 h 30 minagreed 09:00');
    expect(within(rows[1]).getByTestId('change-moved')).toHaveTextContent('−45 minagreed 13:00');
    expect(within(rows[1]).getByTestId('change-reasons')).toHaveTextContent('LeavePat Nguyen is on leave 12:00–14:00.');
    expect(rows[1]).toHaveTextContent('Support Worker');
    expect(screen.getByTestId('proposal-moves-summary')).toHaveTextContent('2 visits move 30 min or more, 1 of them 60 min or more.');
  });

  it('sorts by a column, and the other way on a second click', async () => {
    const { user, clients } = renderChanges();
    await user.click(screen.getByTestId('sort-client'));
    expect(clients()).toEqual(['Ava Burke', 'Bea Cole', 'Cal Dunn', 'Dan Eve']);
    expect(screen.getByRole('columnheader', { name: /Client/ })).toHaveAttribute('aria-sort', 'ascending');
    await user.click(screen.getByTestId('sort-client'));
    expect(clients()).toEqual(['Dan Eve', 'Cal Dunn', 'Bea Cole', 'Ava Burke']);
    await user.click(screen.getByTestId('sort-arrival'));
    expect(clients()).toEqual(['Dan Eve', 'Ava Burke', 'Bea Cole', 'Cal Dunn']);
    await user.click(screen.getByTestId('sort-practitioner'));
    expect(clients()).toEqual(['Ava Burke', 'Bea Cole', 'Dan Eve', 'Cal Dunn']);
    await user.click(screen.getByTestId('sort-moved'));
    expect(clients()).toEqual(['Ava Burke', 'Cal Dunn', 'Bea Cole', 'Dan Eve']);
    await user.click(screen.getByTestId('sort-moved'));
    expect(clients()).toEqual(['Dan Eve', 'Bea Cole', 'Cal Dunn', 'Ava Burke']);
  });

  it('keeps the moves of 30 or 60 min and more, the visits given to another practitioner, or one reason', async () => {
    const { user, clients } = renderChanges();
    await user.selectOptions(screen.getByTestId('changes-filter'), 'Moved 30 min or more');
    expect(clients()).toEqual(['Ava Burke', 'Cal Dunn']);
    expect(screen.getByTestId('changes-shown')).toHaveTextContent('2 of 4 changes');
    await user.selectOptions(screen.getByTestId('changes-filter'), 'Moved 60 min or more');
    expect(clients()).toEqual(['Ava Burke']);
    await user.selectOptions(screen.getByTestId('changes-filter'), 'Practitioner changed');
    expect(clients()).toEqual(['Cal Dunn']);
    await user.selectOptions(screen.getByTestId('changes-filter'), 'All changes');
    // Only the reasons the changes have are offered.
    expect(within(screen.getByTestId('changes-reason-filter')).getAllByRole('option').map((option) => option.textContent))
      .toEqual(['Any reason', 'Travel saved', 'A rule fixed', 'Leave']);
    await user.selectOptions(screen.getByTestId('changes-reason-filter'), 'A rule fixed');
    expect(clients()).toEqual(['Bea Cole']);
    await user.selectOptions(screen.getByTestId('changes-filter'), 'Moved 60 min or more');
    expect(screen.getByTestId('changes-none-shown')).toHaveTextContent('No change is of this kind.');
  });

  it("shows a change's visit on the lanes and the map from its client's name", async () => {
    const { user, onShowVisit } = renderChanges();
    await user.click(screen.getByRole('button', { name: 'Cal Dunn' }));
    expect(onShowVisit).toHaveBeenCalledWith(2);
  });
});
