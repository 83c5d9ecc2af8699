// The appointment's extra details: PMS mapping, change log (oldest first, each change in words and in the server's
// fixed field order, times in the practitioner's zone) and import/export history.
import { formatDateTime } from '../../lib/dates';
import type { AppointmentExtraDetails } from '../../entities/appointments/api';
import { changeLineText } from '../../entities/appointments/changeLine';

type Version = AppointmentExtraDetails['versions'][number];

type VersionChange = Version['changes'][number];

/** Oldest first, stable for equal times. */
function sortVersions(versions: readonly Version[]): Version[] {
  return versions
    .map((version, index) => ({ version, index, at: Date.parse(version.created_at) }))
    .sort((a, b) => a.at - b.at || a.index - b.index)
    .map(({ version }) => version);
}

const EVENT_LABELS: Record<string, string> = { create: 'Created', update: 'Changed', destroy: 'Deleted' };

function ChangeLine({ change, event, timeZone }: { change: VersionChange; event: string; timeZone: string }) {
  const text = changeLineText(change, event, timeZone);
  if (change.kind === 'position' || change.kind === 'sentence') return <>{text}</>;
  return (
    <>
      <span className="font-medium">{change.label}</span>{text.slice(change.label.length)}
    </>
  );
}

export function ExtraDetails({ details, timeZone }: { details: AppointmentExtraDetails; timeZone: string }) {
  const versions = sortVersions(details.versions);
  return (
    <div className="space-y-5 text-sm">
      <div>
        <h4 className="font-medium">Practice management record</h4>
        {details.resource_map ? (
          <dl className="mt-1 grid gap-2 sm:grid-cols-2">
            <div>
              <dt className="text-xs text-slate-500 dark:text-slate-400">External id</dt>
              <dd data-testid="external-id">{details.resource_map.external_id}</dd>
            </div>
            <div>
              <dt className="text-xs text-slate-500 dark:text-slate-400">Last synced</dt>
              <dd>{details.resource_map.external_object_synced_at ? formatDateTime(details.resource_map.external_object_synced_at, timeZone) : 'Never'}</dd>
            </div>
          </dl>
        ) : (
          <p className="mt-1 text-slate-500 dark:text-slate-400">Not linked to a practice management record.</p>
        )}
      </div>

      <div>
        <h4 className="font-medium">Change log</h4>
        {versions.length === 0 ? (
          <p className="mt-1 text-slate-500 dark:text-slate-400">No changes recorded.</p>
        ) : (
          <ol aria-label="Change log" className="mt-1 space-y-2">
            {versions.map((version, index) => (
              <li key={`${version.created_at}-${index}`} data-testid="change-log-entry" className="rounded-md border border-slate-200 p-2 dark:border-slate-700">
                <div className="flex flex-wrap justify-between gap-2 text-xs text-slate-500 dark:text-slate-400">
                  <span>
                    <span className="font-medium text-slate-700 dark:text-slate-200">{EVENT_LABELS[version.event] ?? version.event}</span> by {version.whodunnit ?? 'the system'}
                  </span>
                  <time dateTime={version.created_at}>{formatDateTime(version.created_at, timeZone)}</time>
                </div>
                <ul className="mt-1 space-y-0.5">
                  {version.changes.map((change) => (
                    <li key={change.field} data-testid="change-log-change">
                      <ChangeLine change={change} event={version.event} timeZone={timeZone} />
                    </li>
                  ))}
                </ul>
                {version.reason && <p data-testid="change-log-reason" className="mt-1 text-xs text-slate-600 dark:text-slate-300">{version.reason}</p>}
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
        <p className="mt-1 text-slate-500 dark:text-slate-400">None.</p>
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
