// /settings/business-account (ADMIN, "Account settings"): the business's name and time zone (the business's days —
// "today", reports, reminders — are read in it), how clients and staff reach the office, where maps open, the first
// day of a week, the daily appointment reminder to clients and their ETA messages (On my way), and the phone's visits
// (an arrival flagged far from the client, a visit overdue with no check-in) and how many weeks of care-plan visits are
// planned ahead. Only what changed is saved; the server's 422 lines
// show under their fields.
import { useId, useMemo, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useServices } from '../../../app/ServicesContext';
import { messageOfError } from '../../../api/errors';
import type { RoutePageProps } from '../../../router/routeTypes';
import { Temporal } from 'temporal-polyfill';
import { Button } from '../../../ui/Button';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { ErrorNote, SubmitButton, TextField, focusFirstProblem, useFieldProblems } from '../../../ui/forms';
import { LeaveGuard } from '../../../ui/LeaveGuard';
import { MapView } from '../../../ui/map/MapView';
import { Card, PageHeader } from '../../../ui/PageHeader';
import { PageSpinner } from '../../../ui/PageSpinner';
import { TimeZoneSelect } from '../../../ui/TimeZoneSelect';
import { SPEC_DEFAULTS } from '../../../app/businessDefaults';
import { OVERDUE_AFTER_MINUTES_MAX, OVERDUE_AFTER_MINUTES_MIN } from '../../../entities/appointments/desk';
import { ETA_REPLAN_MINUTES_MAX, ETA_REPLAN_MINUTES_MIN } from '../../../entities/routes/arrivalChanges';
import { BUSINESS_ACCOUNT_SAVE_ERROR, type BusinessAccount, type BusinessAccountChanges } from './api';
import { useSaveBusinessAccount } from './mutations';
import { businessAccountQueries } from './queries';

export const WEEK_DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
const HOURS = Array.from({ length: 24 }, (_, hour) => hour);
const hourLabel = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

const selectClass =
  'mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-sky-500 focus:ring-2 focus:ring-sky-500/30 focus:outline-none sm:w-56 dark:border-slate-700 dark:bg-slate-900';
const labelClass = 'block text-sm font-medium text-slate-700 dark:text-slate-200';
const hintClass = 'mt-1 text-xs text-slate-500 dark:text-slate-400';
const CARE_PLAN_WEEKS_MIN = 1;
const CARE_PLAN_WEEKS_MAX = 12;

interface Draft {
  name: string;
  time_zone: string;
  contact_email: string;
  contact_phone: string;
  /** Text as typed; empty = the default centre (Brisbane). */
  lat: string;
  lng: string;
  week_start: number;
  reminder_hour: number;
  reminders_enabled: boolean;
  eta_messages_enabled: boolean;
  /** Text as typed: metres. */
  arrival_far_metres: string;
  /** Text as typed: minutes. */
  overdue_after_minutes: string;
  /** Text as typed: minutes. */
  eta_replan_minutes: string;
  /** Text as typed: weeks. */
  care_plan_weeks_ahead: string;
}
type Field = 'name' | 'time_zone' | 'contact_email' | 'contact_phone' | 'map_center' | 'week_start' | 'reminder_hour' | 'arrival_far_metres' | 'overdue_after_minutes'
  | 'eta_replan_minutes' | 'care_plan_weeks_ahead';

const draftOf = (account: BusinessAccount): Draft => ({
  name: account.name, time_zone: account.time_zone, contact_email: account.contact_email, contact_phone: account.contact_phone,
  lat: account.map_center_is_default ? '' : String(account.map_center.lat), lng: account.map_center_is_default ? '' : String(account.map_center.lng),
  week_start: account.week_start, reminder_hour: account.reminder_hour, reminders_enabled: account.reminders_enabled,
  eta_messages_enabled: account.eta_messages_enabled,
  arrival_far_metres: String(account.arrival_far_metres),
  overdue_after_minutes: String(account.overdue_after_minutes),
  eta_replan_minutes: String(account.eta_replan_minutes),
  care_plan_weeks_ahead: String(account.care_plan_weeks_ahead),
});

/** What the form alone can tell is wrong. */
function draftProblems(draft: Draft): Map<Field, string> {
  const problems = new Map<Field, string>();
  if (!draft.name.trim()) problems.set('name', 'Enter the business name.');
  const email = draft.contact_email.trim();
  if (email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) problems.set('contact_email', 'Enter an email address such as office@example.com, or leave it empty.');
  const [lat, lng] = [draft.lat.trim(), draft.lng.trim()];
  if (lat !== '' || lng !== '') {
    const [la, ln] = [Number(lat), Number(lng)];
    if (lat === '' || lng === '' || !Number.isFinite(la) || !Number.isFinite(ln) || Math.abs(la) > 90 || Math.abs(ln) > 180) {
      problems.set('map_center', 'Enter a latitude (−90 to 90) and a longitude (−180 to 180), or use the default centre.');
    }
  }
  const far = draft.arrival_far_metres.trim();
  if (!/^\d+$/.test(far) || Number(far) < 25 || Number(far) > 100_000) {
    problems.set('arrival_far_metres', 'Enter a whole number of metres from 25 to 100000.');
  }
  const overdue = draft.overdue_after_minutes.trim();
  if (!/^\d+$/.test(overdue) || Number(overdue) < OVERDUE_AFTER_MINUTES_MIN || Number(overdue) > OVERDUE_AFTER_MINUTES_MAX) {
    problems.set('overdue_after_minutes', `Enter a whole number of minutes from ${OVERDUE_AFTER_MINUTES_MIN} to ${OVERDUE_AFTER_MINUTES_MAX}.`);
  }
  const replan = draft.eta_replan_minutes.trim();
  if (!/^\d+$/.test(replan) || Number(replan) < ETA_REPLAN_MINUTES_MIN || Number(replan) > ETA_REPLAN_MINUTES_MAX) {
    problems.set('eta_replan_minutes', `Enter a whole number of minutes from ${ETA_REPLAN_MINUTES_MIN} to ${ETA_REPLAN_MINUTES_MAX}.`);
  }
  const weeksAhead = draft.care_plan_weeks_ahead.trim();
  if (!/^\d+$/.test(weeksAhead) || Number(weeksAhead) < CARE_PLAN_WEEKS_MIN || Number(weeksAhead) > CARE_PLAN_WEEKS_MAX) {
    problems.set('care_plan_weeks_ahead', `Enter a whole number of weeks from ${CARE_PLAN_WEEKS_MIN} to ${CARE_PLAN_WEEKS_MAX}.`);
  }
  return problems;
}

function changesOf(draft: Draft, saved: Draft): BusinessAccountChanges {
  const changes: BusinessAccountChanges = {};
  if (draft.name !== saved.name) changes.name = draft.name;
  if (draft.time_zone !== saved.time_zone) changes.time_zone = draft.time_zone;
  if (draft.contact_email !== saved.contact_email) changes.contact_email = draft.contact_email;
  if (draft.contact_phone !== saved.contact_phone) changes.contact_phone = draft.contact_phone;
  if (draft.lat.trim() !== saved.lat || draft.lng.trim() !== saved.lng) {
    changes.map_center = draft.lat.trim() === '' ? null : { lat: Number(draft.lat), lng: Number(draft.lng) };
  }
  if (draft.week_start !== saved.week_start) changes.week_start = draft.week_start;
  if (draft.reminder_hour !== saved.reminder_hour) changes.reminder_hour = draft.reminder_hour;
  if (draft.reminders_enabled !== saved.reminders_enabled) changes.reminders_enabled = draft.reminders_enabled;
  if (draft.eta_messages_enabled !== saved.eta_messages_enabled) changes.eta_messages_enabled = draft.eta_messages_enabled;
  if (draft.arrival_far_metres.trim() !== saved.arrival_far_metres) changes.arrival_far_metres = Number(draft.arrival_far_metres);
  if (draft.overdue_after_minutes.trim() !== saved.overdue_after_minutes) changes.overdue_after_minutes = Number(draft.overdue_after_minutes);
  if (draft.eta_replan_minutes.trim() !== saved.eta_replan_minutes) changes.eta_replan_minutes = Number(draft.eta_replan_minutes);
  if (draft.care_plan_weeks_ahead.trim() !== saved.care_plan_weeks_ahead) changes.care_plan_weeks_ahead = Number(draft.care_plan_weeks_ahead);
  return changes;
}

const FIELD_OF_PATH: Record<string, Field> = {
  name: 'name', time_zone: 'time_zone', contact_email: 'contact_email', contact_phone: 'contact_phone', map_center: 'map_center',
  'map_center.lat': 'map_center', 'map_center.lng': 'map_center', week_start: 'week_start', reminder_hour: 'reminder_hour',
  arrival_far_metres: 'arrival_far_metres', overdue_after_minutes: 'overdue_after_minutes', eta_replan_minutes: 'eta_replan_minutes',
  care_plan_weeks_ahead: 'care_plan_weeks_ahead',
};

/** What changing the zone does, with today's 09:00 in the old zone as the example. */
function zoneChangeText(from: string, to: string): string {
  const nine = Temporal.Now.plainDateISO(from).toZonedDateTime({ timeZone: from, plainTime: '09:00' });
  const shown = nine.withTimeZone(to).toPlainTime().toString({ smallestUnit: 'minute' });
  return `Every time in Rounds (schedules, the dashboard, reports, reminders and “today”) will be shown in ${to} instead of ${from}: `
    + `a visit at 09:00 now will show as ${shown}. The visits themselves do not move, and practitioners’ working hours stay in their own zones.`;
}

export default function BusinessAccountPage({ route }: RoutePageProps) {
  const { api } = useServices();
  const account = useQuery({ ...businessAccountQueries.current(api), staleTime: 0 });
  return (
    <>
      <PageHeader title={route.title}>Your business’s name, time zone and the defaults everyone’s screens start from.</PageHeader>
      {account.isPending && <Card><PageSpinner label="Loading account settings" /></Card>}
      {account.isError && <ErrorNote>{messageOfError(account.error, 'An error has occurred. Could not load the account settings.')}</ErrorNote>}
      {/* A save gives new settings: the form starts again from them, so "unsaved" compares with what is stored. */}
      {account.data && <AccountForm key={JSON.stringify(account.data)} account={account.data} />}
    </>
  );
}

function AccountForm({ account }: { account: BusinessAccount }) {
  const ids = useId();
  const saved = useMemo(() => draftOf(account), [account]);
  const [draft, setDraft] = useState(saved);
  const [checked, setChecked] = useState(false);
  const [confirming, setConfirming] = useState<{ changes: BusinessAccountChanges; form: HTMLFormElement } | null>(null);
  const save = useSaveBusinessAccount();
  const change = (patch: Partial<Draft>) => setDraft((now) => ({ ...now, ...patch }));
  const unsaved = Object.keys(changesOf(draft, saved)).length > 0;

  const { problemOf, fieldProps: invalid, problem, other } = useFieldProblems({
    error: save.error, fieldOf: (path) => FIELD_OF_PATH[path], fallback: BUSINESS_ACCOUNT_SAVE_ERROR,
    ours: checked ? draftProblems(draft) : undefined, values: { ...draft, map_center: [draft.lat, draft.lng] },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    setChecked(true);
    if (draftProblems(draft).size > 0) return focusFirstProblem(form);
    const changes = changesOf(draft, saved);
    if (Object.keys(changes).length === 0) return;
    // Every time on every screen moves to the new zone: the admin is asked first.
    if (changes.time_zone) setConfirming({ changes, form });
    else save.mutate(changes, { onError: () => focusFirstProblem(form) });
  };

  const typedCentre = draft.lat.trim() !== '' && !draftProblems(draft).has('map_center') ? { lat: Number(draft.lat), lng: Number(draft.lng) } : null;
  const shownCentre = typedCentre ?? (draft.lat.trim() === '' ? SPEC_DEFAULTS.mapCenter : account.map_center);

  return (
    <form onSubmit={submit} noValidate aria-label="Account settings" className="space-y-6">
      <Card className="space-y-4">
        <h2 className="text-base font-semibold">Business</h2>
        <TextField label="Business name" value={draft.name} maxLength={200} error={problemOf('name')}
          onChange={(event) => change({ name: event.target.value })} />
        <div>
          <TimeZoneSelect label="Time zone" value={draft.time_zone} onChange={(time_zone) => change({ time_zone })} problem={problemOf('time_zone')} />
          <p className={hintClass}>“Today”, the dashboard, schedules, reports and reminders follow this zone.</p>
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label="Contact email" type="email" value={draft.contact_email} maxLength={254} error={problemOf('contact_email')}
            hint="Shown to clients in reminders." onChange={(event) => change({ contact_email: event.target.value })} />
          <TextField label="Contact phone" type="tel" value={draft.contact_phone} maxLength={40} error={problemOf('contact_phone')}
            onChange={(event) => change({ contact_phone: event.target.value })} />
        </div>
      </Card>

      <Card className="space-y-4">
        <h2 className="text-base font-semibold">Maps and calendars</h2>
        <fieldset>
          <legend className={labelClass}>Default map centre</legend>
          <p className={hintClass} id={`${ids}-centre-hint`}>
            Where maps open when they have nothing to show. {draft.lat.trim() === '' ? 'Now: Brisbane (the default).' : 'Drag the pin or type the coordinates.'}
          </p>
          <div className="mt-2 flex flex-wrap items-end gap-3">
            <label className="text-sm">
              <span className={labelClass}>Latitude</span>
              <input inputMode="decimal" value={draft.lat} onChange={(event) => change({ lat: event.target.value })} {...invalid('map_center')}
                className={`${selectClass} sm:w-40`} placeholder="-27.4795" />
            </label>
            <label className="text-sm">
              <span className={labelClass}>Longitude</span>
              <input inputMode="decimal" value={draft.lng} onChange={(event) => change({ lng: event.target.value })} {...invalid('map_center')}
                className={`${selectClass} sm:w-40`} placeholder="153.0160" />
            </label>
            <Button type="button" variant="secondary" size="sm" disabled={draft.lat === '' && draft.lng === ''} onClick={() => change({ lat: '', lng: '' })}>
              Use the default (Brisbane)
            </Button>
          </div>
          {problem('map_center')}
          <div className="mt-3">
            <MapView
              fit="first"
              height={220}
              pins={[{ id: 'centre', lat: shownCentre.lat, lng: shownCentre.lng, title: 'Default map centre' }]}
              onPinMove={(_pin, to) => change({ lat: to.lat.toFixed(6), lng: to.lng.toFixed(6) })}
            />
          </div>
        </fieldset>
        <div>
          <label htmlFor={`${ids}-week`} className={labelClass}>Week starts on</label>
          <select id={`${ids}-week`} className={selectClass} value={draft.week_start} {...invalid('week_start')}
            onChange={(event) => change({ week_start: Number(event.target.value) })}>
            {WEEK_DAYS.map((day, index) => <option key={day} value={index}>{day}</option>)}
          </select>
          <p className={hintClass}>Date pickers and “This week” in reports start the week on this day.</p>
          {problem('week_start')}
        </div>
      </Card>

      <Card className="space-y-4">
        <h2 className="text-base font-semibold">Appointment reminders</h2>
        <label className="flex items-start gap-3 text-sm">
          <input type="checkbox" className="mt-0.5 size-4 rounded border-slate-300" checked={draft.reminders_enabled}
            onChange={(event) => change({ reminders_enabled: event.target.checked })} />
          <span>
            <span className="font-medium">Send clients a daily reminder of their next day’s visits</span>
            <span className="block text-xs text-slate-500 dark:text-slate-400">By email, to clients with an address who have not turned reminders off.</span>
          </span>
        </label>
        <div>
          <label htmlFor={`${ids}-hour`} className={labelClass}>Reminder hour</label>
          <select id={`${ids}-hour`} className={selectClass} value={draft.reminder_hour} disabled={!draft.reminders_enabled} {...invalid('reminder_hour')}
            onChange={(event) => change({ reminder_hour: Number(event.target.value) })}>
            {HOURS.map((hour) => <option key={hour} value={hour}>{hourLabel(hour)}</option>)}
          </select>
          <p className={hintClass}>Each day at this hour in the business’s time zone ({draft.time_zone}).</p>
          {problem('reminder_hour')}
        </div>
        <label className="flex items-start gap-3 text-sm">
          <input type="checkbox" className="mt-0.5 size-4 rounded border-slate-300" checked={draft.eta_messages_enabled}
            onChange={(event) => change({ eta_messages_enabled: event.target.checked })} />
          <span>
            <span className="font-medium">Tell clients when their practitioner is on the way</span>
            <span className="block text-xs text-slate-500 dark:text-slate-400">
              When a practitioner taps On my way, the client gets one message with about when they will arrive: by SMS when
              text messages are set up and the client has a mobile, else by email. Not to clients who turned reminders off.
            </span>
          </span>
        </label>
        <div>
          <label htmlFor={`${ids}-replan`} className={labelClass}>Tell clients of a re-plan that moves their arrival by at least (minutes)</label>
          <input id={`${ids}-replan`} type="text" inputMode="numeric" className={selectClass} value={draft.eta_replan_minutes} {...invalid('eta_replan_minutes')}
            onChange={(event) => change({ eta_replan_minutes: event.target.value })} />
          <p className={hintClass}>When you apply an optimisation and choose to tell the clients, those whose arrival moves this much get a message with the new time.</p>
          {problem('eta_replan_minutes')}
        </div>
      </Card>

      <Card className="space-y-4">
        <h2 className="text-base font-semibold">Visits as they happen</h2>
        <div>
          <label htmlFor={`${ids}-far`} className={labelClass}>Flag an arrival further than (metres)</label>
          <input id={`${ids}-far`} type="text" inputMode="numeric" className={selectClass} value={draft.arrival_far_metres} {...invalid('arrival_far_metres')}
            onChange={(event) => change({ arrival_far_metres: event.target.value })} />
          <p className={hintClass}>When a practitioner taps Arrived this far from the client’s address, the visit is recorded and marked for you to check.</p>
          {problem('arrival_far_metres')}
        </div>
        <div>
          <label htmlFor={`${ids}-overdue`} className={labelClass}>A visit is overdue after (minutes)</label>
          <input id={`${ids}-overdue`} type="text" inputMode="numeric" className={selectClass} value={draft.overdue_after_minutes} {...invalid('overdue_after_minutes')}
            onChange={(event) => change({ overdue_after_minutes: event.target.value })} />
          <p className={hintClass}>A visit with no check-in this long after its planned start is marked overdue on today’s schedule and counted on the dashboard.</p>
          {problem('overdue_after_minutes')}
        </div>
      </Card>

      <Card className="space-y-4">
        <h2 className="text-base font-semibold">Care plans</h2>
        <div>
          <label htmlFor={`${ids}-weeks-ahead`} className={labelClass}>Care plan visits planned ahead (weeks)</label>
          <input id={`${ids}-weeks-ahead`} type="text" inputMode="numeric" className={selectClass} value={draft.care_plan_weeks_ahead} {...invalid('care_plan_weeks_ahead')}
            onChange={(event) => change({ care_plan_weeks_ahead: event.target.value })} />
          <p className={hintClass}>Plan care visits on the Open visits page generates and allocates the care plans’ visits this many weeks ahead (1 to 12).</p>
          {problem('care_plan_weeks_ahead')}
        </div>
      </Card>

      {other.length > 0 && <ErrorNote>{other.join(' ')}</ErrorNote>}
      <div className="flex items-center gap-3">
        <SubmitButton busy={save.isPending} busyLabel="Saving…">Save account settings</SubmitButton>
        {unsaved && <span className="text-sm text-slate-500 dark:text-slate-400">Unsaved changes</span>}
      </div>
      <LeaveGuard unsaved={unsaved} />
      <ConfirmDialog
        open={confirming !== null}
        title={`Change the time zone to ${draft.time_zone}?`}
        message={zoneChangeText(saved.time_zone, draft.time_zone)}
        confirmLabel="Change the time zone"
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          if (confirming) save.mutate(confirming.changes, { onError: () => focusFirstProblem(confirming.form) });
          setConfirming(null);
        }}
      />
    </form>
  );
}
