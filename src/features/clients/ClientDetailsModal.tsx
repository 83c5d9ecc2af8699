// The client details modal: data, map, tags, preferred and excluded practitioners, the care plan and absences, availability
// and the availability request.
import { useCallback, useId, useMemo, useRef, useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Description, Field as HeadlessField, Label, Switch } from '@headlessui/react';
import { useAuthSelector, useServices } from '../../app/ServicesContext';
import { selectRole } from '../../machines/auth';
import { messageOfError } from '../../api/errors';
import {
  AVAILABILITY_REQUEST_CONFIRMATION,
  AVAILABILITY_REQUEST_ERROR,
  AVAILABILITY_REQUEST_SENT,
  CLIENT_LOAD_ERROR,
  sendAvailabilityRequest,
  type Client,
} from '../../entities/clients/api';
import { clientQueries } from '../../entities/clients/queries';
import { AvailabilityEditor } from '../../ui/AvailabilityEditor';
import { TagsEditor } from './TagsEditor';
import { PractitionersEditor } from './PractitionersEditor';
import { CarePlanSection } from './CarePlanSection';
import { AbsencesSection } from './AbsencesSection';
import { useUpdateClientAvailability, useUpdateClientReminders } from './mutations';
import { formatCalendarDate } from '../../lib/dates';
import { addressLine } from '../../lib/mapLinks';
import { MapView } from '../../ui/map/MapView';
import { PointPrecision } from '../../ui/PointPrecision';
import { hasCoordinates } from '../../lib/map/mapTypes';
import { PageSpinner } from '../../ui/PageSpinner';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { Field, ModalFrame, Section } from '../../ui/ModalFrame';
import { Button } from '../../ui/Button';
import { TextLink } from '../../ui/TextLink';
import { newVisitHref } from '../../entities/appointments/newVisitLink';
import { canPlanRoutes } from '../../entities/routes/access';
import { selectUser } from '../../machines/auth';
import { todayIn } from '../../lib/dates';

const CLIENT_MAP_UNAVAILABLE = 'Map unavailable (location is missing)';
const NO_EMAIL_FOR_REQUEST = 'No email address for this client';
const DISCARD_CHANGES_TITLE = 'Discard unsaved changes?';

type EditedPart = 'tags' | 'practitioners' | 'availability' | 'the care plan';
type ReportUnsaved = (part: EditedPart, unsaved: boolean) => void;

export function ClientDetailsModal({ clientId, onClose }: { clientId: number; onClose: () => void }) {
  const { api } = useServices();
  // A client that cannot be loaded is said once, in the modal (not also in a toast over the page).
  const client = useQuery({ ...clientQueries.detail(api, clientId), staleTime: 0 });

  // Closing (Close, the X, Escape, a click outside) asks first while tags, practitioners, availability or a care plan form have unsaved edits.
  const unsaved = useRef<Record<EditedPart, boolean>>({ tags: false, practitioners: false, availability: false, 'the care plan': false });
  const [asking, setAsking] = useState<EditedPart[] | null>(null);
  const reportUnsaved = useCallback<ReportUnsaved>((part, value) => {
    unsaved.current[part] = value;
  }, []);
  const requestClose = useCallback(() => {
    const parts = (Object.keys(unsaved.current) as EditedPart[]).filter((part) => unsaved.current[part]);
    if (parts.length > 0) setAsking(parts);
    else onClose();
  }, [onClose]);

  return (
    <ModalFrame title={client.data?.full_name ?? 'Client details'} onClose={requestClose} testId="client-details-modal">
      {client.isPending && <PageSpinner label="Loading client" />}
      {client.isError && <p role="alert" className="text-sm text-rose-700 dark:text-rose-300">{messageOfError(client.error, CLIENT_LOAD_ERROR)}</p>}
      {client.data && <ClientDetails client={client.data} reportUnsaved={reportUnsaved} />}
      <ConfirmDialog
        open={asking !== null}
        title={DISCARD_CHANGES_TITLE}
        message={`Your changes to ${asking?.join(' and ') ?? ''} have not been saved. Closing discards them.`}
        confirmLabel="Discard changes"
        cancelLabel="Keep editing"
        danger
        onCancel={() => setAsking(null)}
        onConfirm={() => {
          setAsking(null);
          onClose();
        }}
      />
    </ModalFrame>
  );
}

function ClientDetails({ client, reportUnsaved }: { client: Client; reportUnsaved: ReportUnsaved }) {
  const { api, flash } = useServices();
  const [confirming, setConfirming] = useState(false);
  const email = client.email?.trim() ?? '';
  const noEmailId = useId();

  const updateAvailability = useUpdateClientAvailability(client.id);
  const onTagsUnsaved = useCallback((value: boolean) => reportUnsaved('tags', value), [reportUnsaved]);
  const onAvailabilityUnsaved = useCallback((value: boolean) => reportUnsaved('availability', value), [reportUnsaved]);
  const onPractitionersUnsaved = useCallback((value: boolean) => reportUnsaved('practitioners', value), [reportUnsaved]);
  const onCarePlanUnsaved = useCallback((value: boolean) => reportUnsaved('the care plan', value), [reportUnsaved]);
  // A practitioner account neither lists the business's other practitioners nor chooses who visits the client.
  const choosesPractitioners = useAuthSelector(selectRole) !== 'PRACTITIONER';
  // Booking happens on the day schedule (its "New visit" dialog, opened for this client).
  const books = canPlanRoutes(useAuthSelector(selectRole));
  const businessTimeZone = useAuthSelector(selectUser)?.business_account.time_zone;

  const request = useMutation({
    mutationFn: () => sendAvailabilityRequest(api, client.id),
    onSuccess: () => flash.send({ type: 'APPEND', text: AVAILABILITY_REQUEST_SENT }),
    onError: (error) => flash.send({ type: 'APPEND', text: messageOfError(error, AVAILABILITY_REQUEST_ERROR), flashType: 'danger' }),
  });

  const markers = useMemo(
    () => (hasCoordinates(client) ? [{ id: client.id, lat: client.lat, lng: client.lng, title: client.full_name }] : []),
    [client],
  );
  const address = addressLine(client.location ?? {});

  return (
    <>
      <Section
        title="Details"
        actions={books && (
          <TextLink href={newVisitHref({ date: todayIn(businessTimeZone ?? undefined).toString(), clientId: client.id })} className="text-sm font-medium">
            Book a visit
          </TextLink>
        )}
      >
        <dl className="grid gap-3 sm:grid-cols-2">
          <Field label="Name">{client.full_name}</Field>
          <Field label="Date of birth">{client.dob ? formatCalendarDate(client.dob) : '—'}</Field>
          <Field label="Phone numbers">
            {client.phone_numbers.length > 0 ? (
              <ul>
                {client.phone_numbers.map((phone, index) => (
                  <li key={`${phone.number}-${index}`}>
                    <TextLink href={`tel:${phone.number.replace(/\s+/g, '')}`}>{phone.number}</TextLink>
                    {phone.phone_type ? <span className="text-slate-500 dark:text-slate-400"> ({phone.phone_type})</span> : null}
                  </li>
                ))}
              </ul>
            ) : (
              '—'
            )}
          </Field>
          <Field label="Email">
            {client.email ? <TextLink href={`mailto:${client.email}`}>{client.email}</TextLink> : '—'}
          </Field>
          <Field label="Address">{address || '—'}</Field>
          <Field label="Time zone">{client.time_zone ?? '—'}</Field>
        </dl>
      </Section>

      <Section title="Reminders">
        <RemindersSwitch client={client} />
      </Section>

      <Section title="Map">
        {markers.length > 0 ? <MapView pins={markers} /> : <p className="rounded-lg bg-slate-100 px-3 py-6 text-center text-sm text-slate-600 dark:bg-slate-800 dark:text-slate-300">{CLIENT_MAP_UNAVAILABLE}</p>}
        <PointPrecision precision={client.geo_precision} source={client.geo_source} detail className="mt-2" />
      </Section>

      <Section title="Tags">
        <TagsEditor clientId={client.id} tags={client.tags} onUnsavedChange={onTagsUnsaved} />
      </Section>

      {choosesPractitioners && (
        <Section title="Practitioners">
          <PractitionersEditor client={client} onUnsavedChange={onPractitionersUnsaved} />
        </Section>
      )}

      {/* Care plans and absences are the coordinator's: a practitioner neither plans nor reads them. */}
      {choosesPractitioners && <CarePlanSection clientId={client.id} clientName={client.full_name} onUnsavedChange={onCarePlanUnsaved} />}
      {choosesPractitioners && <AbsencesSection clientId={client.id} clientName={client.full_name} />}

      <Section
        title="Availability"
        actions={
          <span className="flex flex-wrap items-center justify-end gap-2">
            {!email && (
              <span id={noEmailId} className="text-xs text-slate-500 dark:text-slate-400">
                {NO_EMAIL_FOR_REQUEST}
              </span>
            )}
            <Button
              variant="secondary"
              size="xs"
              disabled={request.isPending || !email}
              aria-describedby={email ? undefined : noEmailId}
              onClick={() => setConfirming(true)}
            >
              Send availability request
            </Button>
          </span>
        }
      >
        <AvailabilityEditor
          availability={client.availability}
          saveTo={{ clientId: client.id }}
          save={updateAvailability}
          onUnsavedChange={onAvailabilityUnsaved}
        />
      </Section>

      <ConfirmDialog
        open={confirming}
        title="Send availability request"
        message={`${AVAILABILITY_REQUEST_CONFIRMATION} It will be sent to ${client.full_name} at ${email}.`}
        confirmLabel="Send request"
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          request.mutate();
        }}
      />
    </>
  );
}

/** The client's daily appointment reminders (email, and SMS where the server sends it), the day before each visit day. */
function RemindersSwitch({ client }: { client: Client }) {
  const update = useUpdateClientReminders(client.id);
  const reachable = Boolean(client.email?.trim()) || client.phone_numbers.some((phone) => phone.phone_type?.toLowerCase() === 'mobile');
  return (
    <HeadlessField className="flex items-start gap-3 text-sm">
      <Switch
        checked={client.reminders_enabled}
        disabled={update.isPending}
        onChange={(enabled: boolean) => update.mutate(enabled)}
        className="group relative mt-0.5 inline-flex h-5 w-9 shrink-0 cursor-pointer rounded-full bg-slate-300 transition-colors data-checked:bg-sky-600 data-disabled:cursor-wait data-disabled:opacity-60 dark:bg-slate-600"
      >
        <span aria-hidden="true" className="pointer-events-none inline-block size-4 translate-x-0.5 translate-y-0.5 rounded-full bg-white shadow transition group-data-checked:translate-x-4.5" />
      </Switch>
      <div>
        <Label className="font-medium">Send appointment reminders</Label>
        <Description className="text-xs text-slate-500 dark:text-slate-400">
          {reachable
            ? 'The day before each visit day, at the hour set in Account settings, the client is reminded of their visits.'
            : 'This client has no email address or mobile number, so no reminder can reach them.'}
        </Description>
      </div>
    </HeadlessField>
  );
}
