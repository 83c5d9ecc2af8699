// /settings/appointment-types: every user sees the types with duration and colour; an ADMIN can edit them.
import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useAuthSelector, useServices } from '../../../app/ServicesContext';
import { selectUser } from '../../../machines/auth';
import { messageOfError } from '../../../api/errors';
import type { RoutePageProps } from '../../../routes/routeTypes';
import { Card, PageHeader } from '../../../ui/PageHeader';
import { PageSpinner } from '../../../ui/PageSpinner';
import { ErrorNote } from '../../../ui/forms';
import type { AppointmentType } from '../../appointments';
import { appointmentTypeQueries } from '../../appointments';
import { unwrap } from '../../../api/errors';

const APPOINTMENT_TYPE_UPDATED = 'The appointment type has been updated.';

// On a phone each row is a card: the name across the width, then colour, duration and Save beneath it.
const ROW = 'max-sm:flex max-sm:flex-wrap max-sm:items-center max-sm:gap-x-3 max-sm:gap-y-2 max-sm:px-4 max-sm:py-3';
const CELL = 'px-4 py-2 max-sm:p-0';
const NAME_CELL = `${CELL} max-sm:order-first max-sm:w-full`;

const swatch = (color: string | null | undefined) => (color && color !== '' ? color : '#000000');

export default function AppointmentTypesPage({ route }: RoutePageProps) {
  const { api } = useServices();
  const isAdmin = useAuthSelector(selectUser)?.role === 'ADMIN';
  const types = useQuery(appointmentTypeQueries.all(api));
  return (
    <>
      <PageHeader title={route.title}>{isAdmin ? 'Durations set how long each visit takes when schedules are optimised.' : 'Appointment types and how long each visit takes.'}</PageHeader>
      <Card className="p-0">
        {types.isPending && <PageSpinner label="Loading appointment types" />}
        {types.isError && (
          <div className="p-4">
            <ErrorNote>{messageOfError(types.error, 'An error has occurred. Could not load appointment types list.')}</ErrorNote>
          </div>
        )}
        {types.data && (
          <table aria-label="Appointment types" className="w-full divide-y divide-slate-200 text-sm dark:divide-slate-800">
            <thead className="max-sm:sr-only bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase dark:bg-slate-800/50 dark:text-slate-300">
              <tr>
                <th scope="col" className="px-4 py-2">Colour</th>
                <th scope="col" className="px-4 py-2">Name</th>
                <th scope="col" className="px-4 py-2">Duration</th>
                {isAdmin && <th scope="col" className="px-4 py-2"><span className="sr-only">Actions</span></th>}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
              {types.data.map((type) => (isAdmin ? <EditableTypeRow key={`${type.id}-${type.name}-${type.duration}-${type.color}`} type={type} /> : <TypeRow key={type.id} type={type} />))}
              {types.data.length === 0 && (
                <tr>
                  <td colSpan={4} className="px-4 py-10 text-center text-slate-500 dark:text-slate-400">No appointment types yet: they arrive with the first import.</td>
                </tr>
              )}
            </tbody>
          </table>
        )}
      </Card>
    </>
  );
}

function TypeRow({ type }: { type: AppointmentType }) {
  return (
    <tr data-testid="appointment-type-row" className={ROW}>
      <td className={CELL}><span className="inline-block size-4 rounded" style={{ backgroundColor: swatch(type.color) }} aria-label={`Colour ${swatch(type.color)}`} role="img" /></td>
      <td className={`${NAME_CELL} font-medium`}>{type.name}</td>
      <td className={CELL}>{type.duration} min</td>
    </tr>
  );
}

function EditableTypeRow({ type }: { type: AppointmentType }) {
  const { api, flash } = useServices();
  const queryClient = useQueryClient();
  const [name, setName] = useState(type.name);
  const [duration, setDuration] = useState(String(type.duration));
  const [color, setColor] = useState(swatch(type.color));
  const [problem, setProblem] = useState<string | null>(null);
  const changes = {
    ...(name.trim() !== type.name ? { name: name.trim() } : {}),
    ...(Number(duration) !== type.duration ? { duration: Number(duration) } : {}),
    ...(color.toLowerCase() !== swatch(type.color).toLowerCase() ? { color } : {}),
  };
  const save = useMutation({
    mutationFn: async () => {
      const result = await api.PUT('/appointment_types/{id}', { params: { path: { id: type.id } }, body: changes });
      return unwrap(result, 'An error has occurred. Could not update the appointment type.').appointment_type;
    },
    onSuccess: () => {
      flash.send({ type: 'APPEND', text: APPOINTMENT_TYPE_UPDATED });
      void queryClient.invalidateQueries({ queryKey: appointmentTypeQueries.all(api).queryKey });
    },
    onError: (error) => setProblem(messageOfError(error, 'An error has occurred. Could not update the appointment type.')),
  });
  const submit = () => {
    setProblem(null);
    const minutes = Number(duration);
    if (name.trim() === '') return setProblem('An appointment type needs a name.');
    if (!Number.isInteger(minutes) || minutes < 5 || minutes > 1440) return setProblem('Duration must be a whole number of minutes between 5 and 1440.');
    if (Object.keys(changes).length > 0) save.mutate();
  };
  const inputClass = 'rounded-md border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-900';
  return (
    <tr data-testid="appointment-type-row" className={ROW}>
      <td className={CELL}><input type="color" value={color} onChange={(event) => setColor(event.target.value)} aria-label={`Colour of ${type.name}`} className="h-7 w-10 rounded border border-slate-300 p-0.5" /></td>
      <td className={NAME_CELL}><input value={name} onChange={(event) => setName(event.target.value)} aria-label={`Name of ${type.name}`} className={`w-full ${inputClass}`} /></td>
      <td className={`${CELL} whitespace-nowrap`}>
        <input type="number" min={5} max={1440} step={5} value={duration} onChange={(event) => setDuration(event.target.value)} aria-label={`Duration of ${type.name} in minutes`} className={`w-20 ${inputClass}`} /> min
      </td>
      <td className={CELL}>
        <button type="button" onClick={submit} disabled={Object.keys(changes).length === 0 || save.isPending} className="rounded-md border border-slate-300 px-3 py-1 text-sm font-medium disabled:opacity-40 dark:border-slate-600">
          Save
        </button>
        {problem && <div className="mt-1 max-w-56"><ErrorNote>{problem}</ErrorNote></div>}
      </td>
    </tr>
  );
}
