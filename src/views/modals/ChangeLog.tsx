// The appointment's extra details: PMS mapping, change log (oldest first) and import/export history.
import { formatDateTime } from '../../lib/dates';
import type { AppointmentExtraDetails } from '../appointments/api';

type Version = AppointmentExtraDetails['versions'][number];

const DATE_FIELDS = new Set(['arrive_at', 'starts_at', 'ends_at']);

/** Ascending by time, stable for equal times. */
export function sortVersions(versions: readonly Version[]): Version[] {
  return versions
    .map((version, index) => ({ version, index, at: Date.parse(version.created_at) }))
    .sort((a, b) => a.at - b.at || a.index - b.index)
    .map(({ version }) => version);
}

export function formatChangeValue(field: string, value: unknown, timeZone: string): string {
  if (value === null || value === undefined || value === '') return '—';
  if (DATE_FIELDS.has(field) && typeof value === 'string') {
    try {
      return formatDateTime(value, timeZone);
    } catch {
      return value;
    }
  }
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

const fieldLabel = (field: string) => field.replace(/_/g, ' ');

export function ExtraDetails({ details, timeZone }: { details: AppointmentExtraDetails; timeZone: string }) {
  const versions = sortVersions(details.versions);
  return (
    <div className="space-y-5 text-sm">
      <div>
        <h4 className="font-medium">Practice management record</h4>
        {details.resource_map ? (
          <dl className="mt-1 grid gap-2 sm:grid-cols-2">
            <div>
              <dt className="text-xs text-slate-500">External id</dt>
              <dd data-testid="external-id">{details.resource_map.external_id}</dd>
            </div>
            <div>
              <dt className="text-xs text-slate-500">Last synced</dt>
              <dd>{details.resource_map.external_object_synced_at ? formatDateTime(details.resource_map.external_object_synced_at, timeZone) : 'Never'}</dd>
            </div>
          </dl>
        ) : (
          <p className="mt-1 text-slate-500">Not linked to a practice management record.</p>
        )}
      </div>

      <div>
        <h4 className="font-medium">Change log</h4>
        {versions.length === 0 ? (
          <p className="mt-1 text-slate-500">No changes recorded.</p>
        ) : (
          <ol aria-label="Change log" className="mt-1 space-y-2">
            {versions.map((version, index) => (
              <li key={`${version.created_at}-${index}`} data-testid="change-log-entry" className="rounded-md border border-slate-200 p-2 dark:border-slate-700">
                <div className="flex flex-wrap justify-between gap-2 text-xs text-slate-500">
                  <span>
                    <span className="font-medium text-slate-700 capitalize dark:text-slate-200">{version.event}</span> by {version.whodunnit ?? 'the system'}
                  </span>
                  <time dateTime={version.created_at}>{formatDateTime(version.created_at, timeZone)}</time>
                </div>
                <ul className="mt-1 space-y-0.5">
                  {Object.entries(version.object_changes).map(([field, change]) => (
                    <li key={field} data-testid="change-log-change">
                      <span className="font-medium">{fieldLabel(field)}</span>: {formatChangeValue(field, change?.[0], timeZone)} → {formatChangeValue(field, change?.[1], timeZone)}
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ol>
        )}
      </div>

      <SyncHistory title="Import history" entries={details.import_history} timeZone={timeZone} />
      <SyncHistory title="Export history" entries={details.export_history} timeZone={timeZone} />
    </div>
  );
}

function SyncHistory({ title, entries, timeZone }: { title: string; entries: AppointmentExtraDetails['import_history']; timeZone: string }) {
  return (
    <div>
      <h4 className="font-medium">{title}</h4>
      {entries.length === 0 ? (
        <p className="mt-1 text-slate-500">None.</p>
      ) : (
        <ul aria-label={title} className="mt-1 space-y-0.5">
          {entries.map((entry, index) => (
            <li key={`${entry.timestamp}-${index}`}>
              {formatDateTime(entry.timestamp, timeZone)} — {entry.author_full_name ?? 'automatic'}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
