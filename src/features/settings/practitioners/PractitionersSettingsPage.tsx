// /settings/practitioners (ADMIN): the business's practitioners, active or not, and the colour each is shown in on
// the schedule's lanes and the map. A colour is derived until an admin chooses one; "Reset to automatic" goes back.
import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useServices } from '../../../app/ServicesContext';
import { messageOfError, unwrap } from '../../../api/errors';
import type { RoutePageProps } from '../../../routes/routeTypes';
import { Card, PageHeader } from '../../../ui/PageHeader';
import { PageSpinner } from '../../../ui/PageSpinner';
import { ErrorNote } from '../../../ui/forms';
import type { Practitioner } from '../../appointments';
import { appointmentQueries, practitionerQueries } from '../../appointments';

const PRACTITIONER_COLOUR_SAVED = 'The practitioner’s colour has been saved.';
const PRACTITIONER_COLOUR_RESET = 'The practitioner’s colour is automatic again.';

export default function PractitionersSettingsPage({ route }: RoutePageProps) {
  const { api } = useServices();
  const list = useQuery(practitionerQueries.all(api));
  return (
    <>
      <PageHeader title={route.title}>
        Each practitioner has a colour on the schedule’s lanes and on the map. Rounds picks distinct colours by itself; choose
        one to override it.
      </PageHeader>
      <Card className="overflow-x-auto p-0">
        {list.isPending && <PageSpinner label="Loading practitioners" />}
        {list.isError && (
          <div className="p-4">
            <ErrorNote>{messageOfError(list.error, 'An error has occurred. Could not load practitioners list.')}</ErrorNote>
          </div>
        )}
        {list.data && (
          <table aria-label="Practitioners" className="min-w-full divide-y divide-slate-200 text-sm dark:divide-slate-800">
            <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase dark:bg-slate-800/50 dark:text-slate-300">
              <tr>
                <th scope="col" className="px-4 py-2">Name</th>
                <th scope="col" className="px-4 py-2">Status</th>
                <th scope="col" className="px-4 py-2">Colour</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
              {list.data.map((practitioner) => (
                <PractitionerRow key={practitioner.id} practitioner={practitioner} />
              ))}
              {list.data.length === 0 && (
                <tr>
                  <td colSpan={3} className="px-4 py-10 text-center text-slate-500">No practitioners yet: they arrive with the first import.</td>
                </tr>
              )}
            </tbody>
          </table>
        )}
      </Card>
    </>
  );
}

function PractitionerRow({ practitioner }: { practitioner: Practitioner }) {
  const { api, flash } = useServices();
  const queryClient = useQueryClient();
  const name = practitioner.full_name;
  const save = useMutation({
    mutationFn: async (color: string | null) => {
      const result = await api.PATCH('/practitioners/{id}', { params: { path: { id: practitioner.id } }, body: { color } });
      return unwrap(result, 'An error has occurred. Could not save the practitioner’s colour.').practitioner;
    },
    onSuccess: (saved, color) => {
      setDraft(saved.color ?? '#64748b');
      flash.send({ type: 'APPEND', text: color === null ? PRACTITIONER_COLOUR_RESET : PRACTITIONER_COLOUR_SAVED });
      // The lanes and the map read the colour from the practitioners and the appointments.
      void queryClient.invalidateQueries({ queryKey: practitionerQueries.all(api).queryKey });
      void queryClient.invalidateQueries({ queryKey: appointmentQueries.lists() });
    },
  });
  const color = practitioner.color ?? '#64748b';
  const [draft, setDraft] = useState(color);
  return (
    <tr data-testid="practitioner-row">
      <td className="px-4 py-2 font-medium">{name}</td>
      <td className="px-4 py-2">
        {practitioner.active ? (
          <span className="rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300">Active</span>
        ) : (
          <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-600 dark:bg-slate-800 dark:text-slate-400">Inactive</span>
        )}
      </td>
      <td className="px-4 py-2">
        <div className="flex flex-wrap items-center gap-3">
          <input
            type="color"
            value={draft}
            onChange={(event) => setDraft(event.target.value.toLowerCase())}
            aria-label={`Colour of ${name}`}
            className="h-7 w-10 rounded border border-slate-300 p-0.5 dark:border-slate-600"
          />
          <button
            type="button"
            onClick={() => save.mutate(draft)}
            aria-label={`Save the colour of ${name}`}
            disabled={draft === color || save.isPending}
            className="rounded-md border border-slate-300 px-2 py-1 text-xs font-medium disabled:opacity-40 dark:border-slate-600"
          >
            Save
          </button>
          <span className="font-mono text-xs text-slate-600 dark:text-slate-400" data-testid="practitioner-colour">
            {color} · {practitioner.color_chosen ? 'chosen' : 'automatic'}
          </span>
          {practitioner.color_chosen && (
            <button
              type="button"
              onClick={() => save.mutate(null)}
              aria-label={`Reset to automatic (${name})`}
              disabled={save.isPending}
              className="rounded-md border border-slate-300 px-2 py-1 text-xs font-medium disabled:opacity-40 dark:border-slate-600"
            >
              Reset to automatic
            </button>
          )}
        </div>
        {save.isError && <div className="mt-1 max-w-72"><ErrorNote>{messageOfError(save.error, 'An error has occurred. Could not save the practitioner’s colour.')}</ErrorNote></div>}
      </td>
    </tr>
  );
}
