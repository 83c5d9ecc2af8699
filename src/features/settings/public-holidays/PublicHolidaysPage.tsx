// /settings/public-holidays: the business's public holidays by date, on which care plans generate no visits. An ADMIN
// adds (a day and its name) and removes them; a REGULAR_USER reads them.
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Temporal } from 'temporal-polyfill';
import { useAuthSelector, useServices } from '../../../app/ServicesContext';
import { messageOfError } from '../../../api/errors';
import { formatCalendarDate, formatWeekday, todayIn } from '../../../lib/dates';
import { selectUser } from '../../../machines/auth';
import type { RoutePageProps } from '../../../router/routeTypes';
import { openVisitQueries } from '../../../entities/open-visits/queries';
import { Button } from '../../../ui/Button';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { SingleDatePicker } from '../../../ui/DateRangePicker';
import { ErrorNote, TextField, useFieldProblems } from '../../../ui/forms';
import { Card, PageHeader } from '../../../ui/PageHeader';
import { PageSpinner } from '../../../ui/PageSpinner';
import { HOLIDAY_DELETE_ERROR, HOLIDAY_SAVE_ERROR, createPublicHoliday, deletePublicHoliday, publicHolidayQueries, type PublicHoliday } from './api';

type HolidayField = 'date' | 'name';

export default function PublicHolidaysPage({ route }: RoutePageProps) {
  const { api, flash } = useServices();
  const queryClient = useQueryClient();
  const user = useAuthSelector(selectUser);
  const isAdmin = user?.role === 'ADMIN';
  const holidays = useQuery(publicHolidayQueries.all(api));
  const [removing, setRemoving] = useState<PublicHoliday | null>(null);
  const remove = useMutation({
    mutationFn: (id: number) => deletePublicHoliday(api, id),
    onSuccess: () => {
      flash.send({ type: 'APPEND', text: 'The public holiday has been removed: care plans generate visits on it again.' });
      void queryClient.invalidateQueries({ queryKey: publicHolidayQueries.all(api).queryKey });
    },
    onError: (error) => flash.send({ type: 'APPEND', text: messageOfError(error, HOLIDAY_DELETE_ERROR), flashType: 'danger' }),
  });
  const thisYear = todayIn(user?.business_account.time_zone ?? undefined).year;

  return (
    <>
      <PageHeader title={route.title}>
        Care plans generate no visits on these days.{isAdmin ? '' : ' An administrator adds and removes them.'}
      </PageHeader>
      {isAdmin && <AddHolidayForm />}
      <Card className="mt-6 p-0">
        {holidays.isPending && <PageSpinner label="Loading public holidays" />}
        {holidays.isError && <div className="p-4"><ErrorNote>{messageOfError(holidays.error, 'An error has occurred. Could not load the public holidays.')}</ErrorNote></div>}
        {holidays.data && holidays.data.length === 0 && <p className="px-4 py-8 text-center text-sm text-slate-500 dark:text-slate-400">No public holidays yet.</p>}
        {holidays.data && holidays.data.length > 0 && (
          <ul aria-label="Public holidays" className="divide-y divide-slate-100 dark:divide-slate-800">
            {holidays.data.map((holiday) => (
              <li key={holiday.id} data-testid="public-holiday" className="flex flex-wrap items-center justify-between gap-2 px-4 py-2 text-sm">
                <span>
                  <span className="font-medium tabular-nums">{Temporal.PlainDate.from(holiday.date).year === thisYear ? formatWeekday(holiday.date) : formatCalendarDate(holiday.date)}</span>
                  {' · '}
                  {holiday.name}
                </span>
                {isAdmin && (
                  <Button variant="secondary" size="xs" danger onClick={() => setRemoving(holiday)} aria-label={`Remove ${holiday.name}`}>
                    Remove
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
      </Card>
      <ConfirmDialog
        open={removing !== null}
        danger
        title="Remove public holiday"
        message={removing ? `Remove ${removing.name} (${formatCalendarDate(removing.date)})? Care plans generate visits on it again the next time care visits are planned.` : ''}
        confirmLabel="Remove"
        onCancel={() => setRemoving(null)}
        onConfirm={() => {
          if (removing) remove.mutate(removing.id);
          setRemoving(null);
        }}
      />
    </>
  );
}

function AddHolidayForm() {
  const { api, flash } = useServices();
  const queryClient = useQueryClient();
  const timeZone = useAuthSelector(selectUser)?.business_account.time_zone ?? undefined;
  const today = todayIn(timeZone);
  const [date, setDate] = useState<Temporal.PlainDate | null>(null);
  const [name, setName] = useState('');
  const [ours, setOurs] = useState<Map<HolidayField, string>>(new Map());
  const add = useMutation({
    mutationFn: () => createPublicHoliday(api, { date: date!.toString(), name: name.trim() }),
    onSuccess: (holiday) => {
      flash.send({ type: 'APPEND', text: `${holiday.name} has been added: care plans generate no visits on it.` });
      setDate(null);
      setName('');
      void queryClient.invalidateQueries({ queryKey: publicHolidayQueries.all(api).queryKey });
      void queryClient.invalidateQueries({ queryKey: openVisitQueries.all() });
    },
  });
  const { problem, problemOf, other } = useFieldProblems<HolidayField>({
    error: add.error, fieldOf: (path) => (path === 'date' || path === 'name' ? path : null), fallback: HOLIDAY_SAVE_ERROR, ours,
    values: { date: date?.toString(), name },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problems = new Map<HolidayField, string>();
    if (!date) problems.set('date', 'Choose the day of the holiday.');
    if (!name.trim()) problems.set('name', 'Enter the holiday’s name, e.g. Christmas Day.');
    setOurs(problems);
    if (problems.size === 0) add.mutate();
  };
  return (
    <Card>
      <form onSubmit={submit} noValidate aria-label="Add a public holiday" className="space-y-3">
        <h2 className="text-base font-semibold">Add a public holiday</h2>
        <div className="grid gap-3 sm:grid-cols-2">
          <div>
            <SingleDatePicker label="Day" value={date} onChange={setDate} today={today} />
            {problem('date')}
          </div>
          <TextField label="Name" value={name} maxLength={100} error={problemOf('name')} onChange={(event) => setName(event.target.value)} placeholder="Christmas Day" />
        </div>
        {other.length > 0 && <ErrorNote>{other.join(' ')}</ErrorNote>}
        <Button type="submit" size="sm" busy={add.isPending}>Add public holiday</Button>
      </form>
    </Card>
  );
}
