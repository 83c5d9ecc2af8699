// "Optimise" on the day schedule: the dialog that chooses the day (or the days, up to a week), the practitioners and
// the mode, follows the run and shows its proposal (one per day) until it is applied or discarded, with the clients
// whose arrival it moves and whether Apply tells them. Its steps are the optimisation-run machine's (src/machines/
// optimizationRun.ts) and, while the run is created and solves, its job run's (given the feature's calls); the apply
// and discard mutations it is provided with refresh the day and say what changed.
import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { useQuery } from '@tanstack/react-query';
import { fromPromise } from 'xstate';
import { Temporal } from 'temporal-polyfill';
import { useAuthSelector, useServices } from '../../../app/ServicesContext';
import { selectUser } from '../../../machines/auth';
import { problemsShown, runShown, stepOf } from '../../../machines/optimizationRun';
import type { OptimizationMode } from '../../../api/optimizations';
import { formatDay, formatDayRange, formatWeekday, todayIn } from '../../../lib/dates';
import { plural } from '../../../lib/plural';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { ModalFrame } from '../../../ui/ModalFrame';
import { MultiSelect } from '../../../ui/MultiSelect';
import { ErrorNote } from '../../../ui/forms';
import { Button } from '../../../ui/Button';
import { SingleDatePicker } from '../../../ui/DateRangePicker';
import { appointmentQueries, practitionerQueries } from '../../../entities/appointments/queries';
import { isCancelled } from '../../../entities/appointments/facts';
import type { AppointmentSummary } from '../../../entities/appointments/api';
import { optimizationSettingsQueries } from '../../../entities/optimization-settings/queries';
import { useApplyOptimization, useDiscardOptimization } from '../mutations';
import { optimisationJobRun } from './optimisationJobRun';
import { ProposalDays } from './ProposalDays';
import { ProposalView } from './ProposalView';
import { ProposalRoster } from './ProposalRoster';
import { RunProgress } from './RunProgress';
import { TellClients } from './TellClients';
import { UnknownQualifications } from './UnknownQualifications';
import { changesToTell, ETA_REPLAN_MINUTES_DEFAULT } from '../../../entities/routes/arrivalChanges';

const MODES: ReadonlyArray<{ value: OptimizationMode; label: string; hint: string }> = [
  { value: 'keep_practitioners', label: "Keep each visit's practitioner", hint: 'Only the order of the visits and their arrival times change.' },
  {
    value: 'reassign',
    label: 'Reassign between these practitioners',
    hint: 'A visit may move to another of these practitioners who delivers its type and works that day. '
      + 'Someone with nothing booked that day is called in only when the day is worth it (the optimisation settings’ call-in threshold), and the proposal names them.',
  },
];

const PAST_DAY = 'Days before today cannot be optimised: their visits have happened.';
const isDate = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);
const dayTitle = (date: string) => (isDate(date) ? formatDay(Temporal.PlainDate.from(date)) : 'a day');
const rangeTitle = (first: string, last: string) => (isDate(first) && isDate(last) && last !== first ? formatDayRange(first, last) : dayTitle(first));
/** A run plans at most a week: its last day is at most this many days after its first. */
const MAX_EXTRA_DAYS = 6;
const addDays = (date: string, days: number) => Temporal.PlainDate.from(date).add({ days }).toString();

/** The days' visits as the schedule lists them (for one day, the same key as the unfiltered day schedule). */
function useDayVisits(first: string, last: string) {
  const { api } = useServices();
  return useQuery({ ...appointmentQueries.list(api, 'schedule', { start_date: first, end_date: last }), enabled: isDate(first) && isDate(last) });
}

export function OptimiseDialog({ initialDay, initialMode = 'keep_practitioners', initialPractitionerIds, onClose }: {
  initialDay: string;
  /** The practitioners chosen at first (e.g. the one whose visit was cancelled); left out: those with visits that day. */
  initialPractitionerIds?: number[];
  /** Reassign for a re-plan after a practitioner became unavailable. */
  initialMode?: OptimizationMode;
  onClose: () => void;
}) {
  const { api, machines } = useServices();
  const business = useAuthSelector(selectUser)?.business_account;
  const businessTimeZone = business?.time_zone;
  const apply = useApplyOptimization();
  const discard = useDiscardOptimization();
  const actor = useActorRef(
    machines.optimizationRun.provide({
      actors: {
        jobRun: optimisationJobRun(machines.jobRun, api),
        applyOptimization: fromPromise(({ input }) => apply.mutateAsync(input)),
        discardOptimization: fromPromise(({ input }) => discard.mutateAsync(input)),
      },
    }),
  );
  const snapshot = useSelector(actor, (current) => current);
  // While the run is created and solves, its job run holds the step, the run as last read and a refused cancel's reason.
  const jobActor = useSelector(actor, (current) => current.children.job);
  const job = useSelector(jobActor, (current) => current);
  const step = stepOf(snapshot, job);
  const run = runShown(snapshot, job);
  const problems = problemsShown(snapshot, job);
  const { request } = snapshot.context;
  const done = snapshot.status === 'done';
  useEffect(() => {
    if (done) onClose();
  }, [done, onClose]);

  // The choices: the day, the practitioners (every active one with visits that day until the user picks), the mode.
  const [date, setDate] = useState(initialDay);
  // How many days after the first the run ends (0: the one day).
  const [extraDays, setExtraDays] = useState(0);
  const lastDate = isDate(date) ? addDays(date, extraDays) : date;
  const [picked, setPicked] = useState<number[] | null>(initialPractitionerIds ?? null);
  const [mode, setMode] = useState<OptimizationMode>(initialMode);
  const practitioners = useQuery(practitionerQueries.all(api));
  const settings = useQuery(optimizationSettingsQueries.current(api));
  const shownDate = request?.date ?? date;
  const shownLastDate = request ? (request.end_date ?? request.date) : lastDate;
  const dayVisits = useDayVisits(shownDate, shownLastDate);
  const visits = useMemo(() => (dayVisits.data?.appointments ?? []).filter((visit) => !isCancelled(visit)), [dayVisits.data]);
  const visitsById = useMemo(() => new Map<number, AppointmentSummary>(visits.map((visit) => [visit.id, visit])), [visits]);
  const options = useMemo(
    () => (practitioners.data ?? []).filter((practitioner) => practitioner.active).map((practitioner) => ({ id: practitioner.id, name: practitioner.full_name })),
    [practitioners.data],
  );
  const withVisits = useMemo(() => {
    const ids = new Set(visits.map((visit) => visit.practitioner.id));
    return options.filter((option) => ids.has(option.id)).map((option) => option.id);
  }, [options, visits]);
  const chosen = picked ?? withVisits;
  const reassignAllowed = settings.data?.allow_reassignment === true;
  const chosenMode = reassignAllowed ? mode : 'keep_practitioners';
  const chosenVisits = visits.filter((visit) => chosen.includes(visit.practitioner.id)).length;

  // Only the future moves: the server refuses days before today (in the business's time zone) too.
  const today = todayIn(businessTimeZone ?? undefined);
  const past = isDate(date) && Temporal.PlainDate.compare(Temporal.PlainDate.from(date), today) < 0;
  const formId = useId();
  const start = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'START', request: { date, ...(extraDays > 0 ? { end_date: lastDate } : {}), practitioner_ids: chosen, mode: chosenMode } });
  };

  // The clients whose arrival the proposal moves enough to be told (when the business sends ETA messages); told by
  // default on a re-plan of today, asked for on later days (their reminder tells the time the day before).
  const replanMinutes = business?.eta_replan_minutes ?? ETA_REPLAN_MINUTES_DEFAULT;
  const proposals = run?.days ?? (run?.proposal ? [run.proposal] : []);
  const toTell = business?.eta_messages_enabled === false ? [] : changesToTell(
    proposals.flatMap((proposal) => proposal.changes), (id) => visitsById.get(id)?.starts_at, replanMinutes, Date.now(),
  );
  const [tellChoice, setTellChoice] = useState<boolean | null>(null);
  const tell = tellChoice ?? shownDate === today.toString();

  const is = (name: string) => step === name;
  const configuring = is('configure') || is('submitting');
  const following = is('running') || is('cancelling') || is('closing');
  const deciding = is('proposal') || is('applying') || is('discarding') || is('discardingForAnother');

  const footer = (
    <>
      {configuring && (
        <Button type="submit" form={formId} size="sm" busy={is('submitting')}>
          {is('submitting') ? 'Starting…' : 'Start'}
        </Button>
      )}
      {following && (
        <Button variant="secondary" size="sm" disabled={!is('running')} onClick={() => actor.send({ type: 'CANCEL' })}>
          {is('running') ? 'Cancel optimisation' : 'Cancelling…'}
        </Button>
      )}
      {deciding && (
        <>
          <Button variant="secondary" size="sm" busy={is('discarding')} disabled={!is('proposal')} onClick={() => actor.send({ type: 'DISCARD' })}>
            Discard
          </Button>
          {/* Discards this plan and runs the same request again with a new seed. */}
          <Button variant="secondary" size="sm" busy={is('discardingForAnother')} disabled={!is('proposal')} onClick={() => actor.send({ type: 'TRY_ANOTHER' })} data-testid="try-another-plan">
            Try another plan
          </Button>
          <Button size="sm" busy={is('applying')} disabled={!is('proposal')} onClick={() => actor.send({ type: 'APPLY', notifyClients: tell && toTell.length > 0 })}>
            {is('applying') ? 'Applying…' : 'Apply'}
          </Button>
        </>
      )}
      {is('outdated') && (
        <Button size="sm" onClick={() => actor.send({ type: 'RUN_AGAIN' })}>
          Run again
        </Button>
      )}
      {(is('cancelled') || is('failed')) && (
        <Button size="sm" onClick={() => actor.send({ type: 'EDIT' })}>
          Change and start again
        </Button>
      )}
    </>
  );

  return (
    <ModalFrame title={`Optimise ${rangeTitle(shownDate, shownLastDate)}`} onClose={() => actor.send({ type: 'CLOSE' })} footer={footer} testId="optimise-dialog" width="large">
      <div data-testid="optimise-step" data-step={step} className="space-y-6">
        {problems.length > 0 && (
          <ErrorNote>
            {problems.length === 1 ? (
              problems[0]
            ) : (
              <ul className="list-disc space-y-0.5 pl-4">
                {problems.map((problem) => <li key={problem}>{problem}</li>)}
              </ul>
            )}
          </ErrorNote>
        )}

        {configuring && (
          <form id={formId} onSubmit={start} noValidate className="space-y-4" aria-label="What to optimise">
            <fieldset disabled={is('submitting')} className="space-y-4">
              <SingleDatePicker
                label="Day"
                value={isDate(date) ? Temporal.PlainDate.from(date) : null}
                onChange={(day) => setDate(day?.toString() ?? '')}
                today={today}
                earliest={today}
                hint={past ? `${dayTitle(date)} has passed. ${PAST_DAY}` : PAST_DAY}
              />
              <div>
                <label htmlFor={`${formId}-to`} className="block text-sm font-medium text-slate-700 dark:text-slate-200">To</label>
                <select
                  id={`${formId}-to`}
                  data-testid="optimise-to"
                  value={extraDays}
                  disabled={!isDate(date)}
                  onChange={(event) => setExtraDays(Number(event.target.value))}
                  className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-900"
                >
                  {Array.from({ length: MAX_EXTRA_DAYS + 1 }, (_, extra) => (
                    <option key={extra} value={extra}>
                      {extra === 0 ? 'The same day (one day)' : isDate(date) ? `${formatWeekday(addDays(date, extra))} (${extra + 1} days)` : `${extra + 1} days`}
                    </option>
                  ))}
                </select>
                <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
                  Up to a week, starting any day, weekends included: each day is planned in turn, each practitioner only on the days they
                  work, keeping clients with the practitioners planned for them on the days before.
                </p>
              </div>
              <div>
                <MultiSelect
                  label="Practitioners"
                  testId="optimise-practitioners"
                  options={options}
                  value={chosen}
                  onChange={setPicked}
                  placeholder="None chosen"
                  loading={practitioners.isPending}
                  failed={practitioners.isError}
                  disabled={is('submitting')}
                />
                <p className="mt-1 text-xs text-slate-500 dark:text-slate-400" data-testid="optimise-visit-count">
                  {!isDate(date)
                    ? 'Choose a day to see its visits.'
                    : dayVisits.isError
                      ? "The day's visits could not be loaded: choose the practitioners yourself."
                      : dayVisits.isPending
                        ? "Loading the day's visits…"
                        : `${plural(chosenVisits, 'visit')} of the chosen practitioners ${extraDays > 0 ? 'on these days' : 'on this day'}.`}
                  {picked === null && (extraDays > 0 ? ' Every active practitioner with visits on these days is chosen.' : ' Every active practitioner with visits that day is chosen.')}
                </p>
                <UnknownQualifications practitioners={practitioners.data ?? []} chosen={chosen} />
              </div>
              {reassignAllowed ? (
                <fieldset>
                  <legend className="text-sm font-medium text-slate-700 dark:text-slate-200">Mode</legend>
                  <div className="mt-1 space-y-2">
                    {MODES.map((option) => (
                      <label key={option.value} className="flex items-start gap-2 text-sm">
                        <input
                          type="radio"
                          name={`${formId}-mode`}
                          value={option.value}
                          checked={chosenMode === option.value}
                          onChange={() => setMode(option.value)}
                          className="mt-0.5"
                        />
                        <span>
                          <span className="font-medium">{option.label}</span>
                          <span className="block text-xs text-slate-500 dark:text-slate-400">{option.hint}</span>
                        </span>
                      </label>
                    ))}
                  </div>
                </fieldset>
              ) : (
                <p className="text-sm text-slate-600 dark:text-slate-300" data-testid="optimise-mode-fixed">
                  <span className="font-medium">{MODES[0].label}.</span> {MODES[0].hint}
                </p>
              )}
            </fieldset>
          </form>
        )}

        {following && run && <RunProgress run={run} cancelling={!is('running')} />}

        {deciding && run?.proposal && run.seed !== undefined && (
          <p className="text-xs text-slate-500 dark:text-slate-400" data-testid="proposal-plan">
            Plan {run.plan_number ?? 1} of {run.end_date !== run.date ? 'these days' : 'this day'} · seed {run.seed}
          </p>
        )}
        {deciding && run?.proposal && (run.days && run.days.length > 1
          ? <ProposalDays days={run.days} visits={visitsById} continuity={run.continuity} />
          : <><ProposalRoster proposal={run.proposal} />{!run.proposal.empty_day && <ProposalView proposal={run.proposal} visits={visitsById} />}</>)}
        {deciding && run?.proposal && (
          <TellClients
            changes={toTell}
            bookedStart={(id) => visitsById.get(id)?.starts_at}
            minutes={replanMinutes}
            timeZone={run.proposal.time_zone}
            showDay={proposals.length > 1}
            tell={tell}
            onTellChange={setTellChoice}
          />
        )}

        <ConfirmDialog
          open={snapshot.matches({ proposal: 'confirmingDiscard' })}
          title="Discard this proposal?"
          message="Closing throws the proposal away: nothing on the day changes, and the day must be optimised again to see it."
          confirmLabel="Discard"
          cancelLabel="Keep the proposal"
          danger
          onConfirm={() => actor.send({ type: 'DISCARD' })}
          onCancel={() => actor.send({ type: 'KEEP' })}
        />

        {is('outdated') && <p className="text-sm text-slate-600 dark:text-slate-300">Nothing was changed. Run the day again to plan it as it is now.</p>}
        {is('cancelled') && <p className="text-sm text-slate-600 dark:text-slate-300" role="status">The optimisation was cancelled. Nothing was changed.</p>}
      </div>
    </ModalFrame>
  );
}
