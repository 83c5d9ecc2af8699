// The Optimise dialog names the chosen practitioners whose qualifications are unknown (no appointment types from
// Cliniko and none chosen in Rounds): a run gives them no visit that is not already theirs (issue 35).
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { server } from './support/fakeApi';
import { useFakeApi } from './support/harness';
import { freshFake, json, PAT, PRACTITIONERS, renderDaySchedule, SAM, serveRoutes } from './support/routesFakeApi';

useFakeApi();

function serveQualifications(unknown: number[]) {
  serveRoutes(server, freshFake());
  server.use(http.get('*/api/practitioners/all', () => json({
    practitioners: PRACTITIONERS.map((practitioner) => ({ ...practitioner, qualified_appointment_type_ids: unknown.includes(practitioner.id) ? null : [3] })),
  })));
}

async function openDialog() {
  const user = userEvent.setup();
  renderDaySchedule();
  await user.click(await screen.findByRole('button', { name: 'Optimise' }));
  const dialog = await screen.findByTestId('optimise-dialog');
  await waitFor(() => expect(within(dialog).getByTestId('optimise-visit-count')).toHaveTextContent('5 visits'));
  return dialog;
}

describe('the Optimise dialog and qualifications', () => {
  it('names each chosen practitioner with no known qualifications, and says what the run does with them', async () => {
    serveQualifications([SAM.id]);
    const dialog = await openDialog();
    await waitFor(() => expect(within(dialog).getByTestId('optimise-unknown-qualifications')).toHaveTextContent(
      'No known qualifications: Sam Lee. No visit that is not already theirs is given to them; their appointment types come from Cliniko with the next import.',
    ));
  });

  it('says nothing when every chosen practitioner has known qualifications', async () => {
    serveQualifications([]);
    const dialog = await openDialog();
    expect(within(dialog).getByTestId('optimise-practitioners')).toHaveTextContent(PAT.full_name);
    expect(within(dialog).queryByTestId('optimise-unknown-qualifications')).toBeNull();
  });
});
