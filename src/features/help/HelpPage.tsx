// /help: the user guide that ships with Rounds (the header's Help link points here unless HELP_URL says otherwise).
import type { ReactNode } from 'react';
import type { RoutePageProps } from '../../routes/routeTypes';
import { Card, PageHeader } from '../../ui/PageHeader';
import { TextLink } from '../../ui/TextLink';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card className="space-y-3 text-sm leading-6 text-slate-700 dark:text-slate-300">
      <h2 className="text-base font-semibold text-slate-900 dark:text-white">{title}</h2>
      {children}
    </Card>
  );
}

export default function HelpPage({ route }: RoutePageProps) {
  return (
    <>
      <PageHeader title={route.title}>How to run a day of home visits with Rounds.</PageHeader>
      <div className="space-y-4">
        <Section title="What Rounds does">
          <p>
            Rounds keeps your practitioners’ home visits in one place. It copies the bookings from your practice management
            system (Cliniko), shows each day per practitioner and on a map, lets you adjust arrival times around each
            client’s availability, sends the new times back, and lets clients tell you when they are home.
          </p>
        </Section>

        <Section title="A day with Rounds">
          <ol className="list-decimal space-y-2 pl-5">
            <li>
              <strong>Import</strong> the bookings: the header’s Import button (or automatic imports every hour, set in
              Settings → Sync settings) copies appointments, clients and practitioners from your practice management system.
            </li>
            <li>
              <strong>See</strong> the day: <TextLink variant="prose" href="/appointments">Appointments</TextLink> shows the
              visits as a list, or as one day’s lanes per practitioner with a map. Each practitioner keeps one colour on the
              lanes and the map. A warning marks a visit whose arrival time falls outside the client’s availability.
            </li>
            <li>
              <strong>Fix</strong> what does not fit: open a visit to change its arrival time, or open a client to record when
              they are available and to tag them.
            </li>
            <li>
              <strong>Export</strong> the new times: the header’s Export button (or automatic exports every hour) writes the
              arrival times back to your practice management system.
            </li>
            <li>
              <strong>Tell clients</strong>: from a client’s details, send an availability request; the client answers
              through a link in the email, without an account.
            </li>
          </ol>
          <p>Times are shown in your business’s time zone, or in the practitioner’s own zone where it differs.</p>
        </Section>

        <Section title="The dashboard">
          <p>
            Administrators and staff see what needs doing, each tile with a link to the page that fixes it: today’s and
            tomorrow’s visits per practitioner; visits arriving outside the client’s availability and visits with too
            little time for the travel before them (today and tomorrow); unrouted days (in the next 7 days, a practitioner
            with a start place and working hours that day who has visits but no applied route); stale routes (routes whose
            visits changed after they were applied); clients missing an address; the last import and export (staff: the
            last they started); and this week’s travel of optimised routes and utilisation (visit hours ÷ working hours
            from the practitioners’ settings) against last week. Practitioners see their next visit and today’s run sheet.
          </p>
        </Section>

        <Section title="Who can do what">
          <ul className="list-disc space-y-1 pl-5">
            <li><strong>Administrators</strong> can do everything, including imports, exports, reports and settings.</li>
            <li><strong>Staff</strong> work with appointments and clients.</li>
            <li><strong>Practitioners</strong> see their own appointments and the clients they visit.</li>
          </ul>
          <p>If a page needs an administrator account, Rounds says so and takes you to the dashboard.</p>
        </Section>

        <Section title="Where the settings are">
          <p>
            Administrators find everything under <TextLink variant="prose" href="/settings">Settings</TextLink>: the connection to
            your practice management system (Provider account), Sync settings, Practitioners (their colours), Tags and
            Appointment types, and Users: invite a colleague by email (they choose their password from the link, which
            works once for 7 days), change their role, or deactivate someone who leaves. Everyone can change their own name, email and password under{' '}
            <TextLink variant="prose" href="/settings/my-account">My account</TextLink>, also in the menu under your avatar.
          </p>
        </Section>
      </div>
    </>
  );
}
