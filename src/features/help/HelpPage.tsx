// /help: the user guide that ships with Rounds (the header's Help link points here unless HELP_URL says otherwise).
import type { ReactNode } from 'react';
import type { RoutePageProps } from '../../router/routeTypes';
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

        <Section title="A coordinator’s day">
          <ol className="list-decimal space-y-2 pl-5">
            <li>
              <strong>Import</strong> the bookings: the header’s <strong>Import</strong> button (or automatic imports every hour,
              set in Settings → Sync settings) copies appointments, clients and practitioners from your practice management system.
            </li>
            <li>
              <strong>See</strong> the day: <TextLink variant="prose" href="/appointments">Appointments</TextLink> shows the
              visits as a <strong>List</strong>, or as a <strong>Day schedule</strong>: one lane per practitioner, with the day on
              a map. Each practitioner keeps one colour on the lanes and the map. A warning marks a visit whose arrival time falls
              outside the client’s availability, or that leaves too little time for the travel before it.
            </li>
            <li>
              <strong>Optimise</strong> the day: on the day schedule, press <strong>Optimise</strong>, choose the day and the
              practitioners, and whether to <em>keep each visit’s practitioner</em> (only the order and the arrival times change)
              or to <em>reassign between these practitioners</em>. Press <strong>Start</strong>. Rounds searches for the shortest
              travel that keeps each visit inside the client’s availability and each practitioner’s hours, break and limits.
              A visit with <strong>Keep this time</strong> ticked keeps its arrival time and practitioner.
              Only the future moves: days before today cannot be optimised, and today a visit that has started or starts within
              30 minutes (Settings → Optimisation, “Visits starting within … minutes stay as they are”) keeps its time and
              practitioner, whether you optimise, drag, move or insert it.
            </li>
            <li>
              <strong>Plan a week</strong>: in the Optimise window, choose a <strong>To</strong> day up to six days after the
              first. Rounds plans each day in turn (the progress says which day it is on, e.g. “Day 2 of 5 — Tue 1 Dec”),
              with the same rules and search time as a single day. When it may reassign, a client keeps the practitioner it
              planned for them on the days before where it can, and with <strong>Balance the day between practitioners</strong> on,
              a practitioner whose earlier days ran long is given less of the later ones. The proposal shows the days’ figures
              together (there the spread of working time is of the days’ hours added up), then each day
              by its button, with its lanes, figures and rules. <strong>Apply</strong> changes every day at once — if any day
              has changed since (it names the day), nothing is changed — and <strong>Discard</strong> and
              <strong> Undo optimisation</strong> act on every day too. A practitioner on leave on one of the days, with visits
              that day, stops a run that keeps visits with their practitioner, so reassign for such a week.
            </li>
            <li>
              <strong>Weeks that fit the roster</strong>: a run covers any 1 to 7 days in a row, starting on any day, weekends
              included. Each practitioner is planned only on the days they work: a day without working hours for them, or
              without visits, is skipped for them, never an error. A day with nothing to plan says so (“Saturday 26: no
              visits”, or “nobody works”); a practitioner with visits on a day without working hours keeps those visits as
              they are, and the proposal says so (an administrator sets working hours in Settings → Practitioners). When the
              run may reassign, a practitioner who works that day but had nothing booked is called in only when the day is
              worth opening — at least 3 visits or 3 hours of work by default (Settings → Optimisation, “Calling a
              practitioner in”) — and the proposal names each one (“Calls in Ava Burke on Saturday 26: 4 visits, 3 h 10”).
              Over the days, a client’s visits go to the practitioners who already see them where the plan allows; the
              proposal shows the distinct carers per client over the days, before → after.
            </li>
            <li>
              <strong>The rules of home care</strong>: every plan keeps to them — an optimisation, a drag, a move, an insertion
              or an arrival time typed by hand. An arrival stays within 30 minutes of the booked time (Settings → Optimisation,
              “Arrivals may move up to … minutes”; an appointment type may have its own, e.g. 120 minutes for domestic
              assistance, in Settings → Appointment types). A client never has two visits at once, their visits keep the order
              they were booked in, with at least an hour between the end of one and the start of the next (“At least … minutes
              between a client’s visits”; a type may ask for more since the client’s last visit of that type, e.g. 4 hours
              between medication checks). Two bookings of one client at the same time with two practitioners are a two-carer
              visit: they arrive together, as booked. When no other time fits a visit, it keeps its time and the proposal says
              why. No visit is booked while its practitioner is on leave, with a practitioner who does not deliver its type
              (“Not qualified for this visit”: see Qualifications below), or with one the client asked not to see. Working hours and the travel time
              between a practitioner’s visits are soft rules: a plan may break them, and the day’s problems and the proposal
              show where. A proposal lists the day’s problems rule by rule, before → after, and never adds a break of the hard
              rules; Apply refuses if the day has changed since so that it would, and a change by hand that would break one is
              refused with the rule in words. A move, a drag, an insertion or an arrival time that breaks a soft rule goes
              ahead, and a notice after it says what to check (e.g. too little time to travel to the next visit).
            </li>
            <li>
              <strong>Qualifications</strong>: the appointment types each practitioner delivers come from Cliniko (the
              practitioner’s appointment types there), read again by every import, so a type removed in Cliniko is removed in
              Rounds too. An administrator may narrow them in Settings → Practitioners (“Appointment types they deliver”), which
              shows From Cliniko, Narrowed in Rounds and Effective for each practitioner. Cliniko’s list wins: Rounds can only
              narrow it, never add a type Cliniko does not list (add it in Cliniko, then import); without a list from Cliniko, the
              types chosen in Rounds are the practitioner’s qualifications. A visit is offered only to a practitioner whose
              effective qualifications include its type — by an optimisation in either mode, a move or a drag, Insert into a
              route, the nearby search and re-planning the rest of today — and the day’s problems list a visit booked with one
              who does not deliver it (“Not qualified for this visit”). A practitioner with no known qualifications (none from
              Cliniko and none chosen in Rounds) is never read as delivering every type: they keep the visits that are theirs
              and are given no other; Settings → Practitioners and the Optimise dialog name them.
            </li>
            <li>
              <strong>Two-carer visits</strong>: a visit that needs two practitioners at once (a hoist transfer, say) is booked
              twice for the client at the same time, once with each practitioner. Tick <strong>Needs two practitioners</strong>{' '}
              for its appointment type in Settings → Appointment types, and the day’s problems list any visit of that type booked
              with only one practitioner (“… needs two practitioners; only Amelia Brown is booked”). On the lanes each half says
              who it is <em>with</em> and carries the two-people mark; the map shows the pair as one pin naming both, and the
              visit’s details list both practitioners. An optimisation never parts the two or moves them. Moving or dragging one
              half to another time moves the other half with it, each staying with its own practitioner; an arrival time set on
              one half is set on the other too (unless that half is on a route, when the change is refused in words). Giving one
              half to the other half’s practitioner is refused.
            </li>
            <li>
              <strong>Who visits whom</strong>: in a client’s window, under <strong>Practitioners</strong>, choose the
              practitioners the client prefers and those they have asked not to see, and press <strong>Save practitioners</strong>.
              An excluded practitioner is never given that client’s visits: an optimisation gives them to someone else (or leaves
              them unplaced, saying why, when no one else chosen can take them), Rounds refuses to move or insert them into that
              practitioner’s day by hand, and Nearby search does not suggest them. When you let an optimisation reassign
              visits, a preferred practitioner is favoured the way the client’s usual practitioner is: the usual one if they are
              preferred, otherwise the first preferred practitioner among the lanes you chose.
            </li>
            <li>
              <strong>A fair share of the day</strong>: when one practitioner’s day runs long while another’s is short, tick
              <strong> Balance the day between practitioners</strong> in Settings → Optimisation. An optimisation that reassigns
              visits then gives work from days longer than the average day as it stands to the others, so working days (leaving
              home to getting back) come out closer in length, even if that adds a little travel. Visits stay within their
              tolerance, so a day can only grow or shrink as far as its visits may move or change hands. How much evenness counts against travel is the “Balance between practitioners” weight under
              Advanced. The proposal shows the <strong>spread of working time</strong> (the longest day less the shortest)
              before → after.
            </li>
            <li>
              Read the <strong>proposal</strong> before anything changes: the figures before → after (travel time and distance, idle
              time, visits outside availability, overtime, the spread of working time), the lanes and the map of the new day, every visit whose arrival or
              practitioner changes, and any visit it could not place, with the reason (applying leaves those where they are). Press <strong>Apply</strong> to keep it, or
              <strong> Discard</strong> to leave the day as it was. If the day changed while Rounds was searching, nothing is
              changed and you can <strong>Run again</strong>.
            </li>
            <li>
              <strong>Reading a proposal.</strong> The table of changes lists the biggest moves first: for each visit, the
              minutes it moves from the time agreed with the client (+ later, − earlier), its arrival and practitioner before →
              after with their role, and <em>why</em>: the travel it saves on the practitioner’s day, a rule it fixes, its
              practitioner’s leave, continuity (back with the client’s usual practitioner) or a practitioner the client
              prefers. When a visit leaves a practitioner the client prefers, the proposal says why; it never gives a visit to
              one the client does not want. Sort by a column’s heading (minutes moved, arrival, client, practitioner) and keep
              only the moves of 30 or 60 minutes or more, the visits that change practitioner, or one reason. Press a
              client’s name, a problem’s <strong>Show the visit</strong> or a visit not placed to see it on the lanes and the
              map; <strong>Changes only</strong> draws just the routes that change and stars their changed stops. Visits
              that cannot be placed stay with their practitioner at their time, and the figures count them there before and
              after, so before → after is what applying changes. Each plan has a <strong>seed</strong> (“Plan 1 of this
              day · seed 4821”): the same day, settings and seed give the same plan, and <strong>Try another plan</strong>
              discards this one and searches again with a new seed.
            </li>
            <li>
              <strong>Leave</strong>: when someone is away, record it in Settings → Practitioners (their <strong>Edit</strong>{' '}
              window, <strong>Leave</strong>): whole days, or part of a day with the times, and a reason if you like. Time off
              entered in Cliniko (unavailable blocks) comes in with each import; change that in Cliniko. Rounds never plans anyone
              on leave: a day of leave stops an optimisation that keeps their visits with them (it names them), and part of a day
              shortens their hours to the longer stretch they are still working (the afternoon off leaves the morning). Visits
              already booked in someone’s leave are striped and marked <strong>On leave</strong> on the day schedule, and the
              dashboard counts them: optimise that day choosing <em>reassign between these practitioners</em> (with the person
              on leave still chosen) and their visits move to the others.
            </li>
            <li>
              <strong>Routes</strong>: applying makes each practitioner’s day a route (marked “Optimised route” under their name).
              When a visit on a routed day is moved, cancelled or added, the route is marked “Route changed” and a banner names
              it: optimise the day again, or remove the route to set arrival times by hand. Changed your mind? Press
              <strong> Undo optimisation</strong> under the name: every visit goes back to the time and practitioner it had
              before, as long as none of them has been changed since (if one has, Rounds names it). Times already exported to the
              practice management system are not a change: Undo puts them back too and starts an export that writes the
              restored times there, and says so.
            </li>
            <li>
              <strong>The client’s agreed time</strong>: each visit keeps the time the client agreed to apart from the arrival
              Rounds plans (open a visit: “Agreed time”). It is the booking’s start when the visit is first imported, and it
              changes only when someone changes it on purpose: a visit moved by hand to a new start, or moved in the practice
              management system. Cliniko has a single start for an appointment, so an export writes the planned arrival there;
              Rounds remembers what it exported, so the next import tells its own write apart from a change made in Cliniko,
              and the agreed time stays as it was. The tolerance (“Arrivals may move up to … minutes”) is always measured from
              the agreed time, so optimising, exporting and importing again and again never carries a visit further from it.
              Every minute a visit moves from its agreed time also has a price (Settings → Optimisation, “Price of moving a
              visit from its agreed time”, 0.25 minutes of travel a minute by default; an appointment type may have its own):
              an optimisation moves a client only when that saves enough travel, lateness or overtime.
            </li>
            <li>
              <strong>Fix</strong> one visit: open it to change its arrival time, or, under Move, choose <strong>Move by
              hand</strong> (another practitioner, day or start time) or <strong>Insert into a route</strong>: press
              <strong> Find the best place</strong> and Rounds shows the cheapest place for the visit among the chosen
              practitioners’ days, with the added travel. Nothing changes until you press <strong>Apply</strong>. On the day
              schedule you can also drag a visit to another time or practitioner.
            </li>
            <li>
              <strong>Find who could take a new visit</strong>: <TextLink variant="prose" href="/search">Nearby search</TextLink>{' '}
              starts from a client (type their name and pick them with the arrow keys and Enter) or an address, a radius, a day,
              a type and a length. It lists the practitioners who could fit the visit into their day as it is, the one adding
              the least travel first, and the clients nearby. <strong>Open … ’s day</strong> takes you to that practitioner’s
              day schedule to book or move the visit.
            </li>
            <li>
              <strong>Export</strong> the new times: the header’s <strong>Export</strong> button (or automatic exports every hour)
              writes the arrival times back to your practice management system.
            </li>
            <li>
              <strong>Tell clients</strong>: each client with an email address gets a reminder the day before their visits, with
              the arrival window (switch it off with <strong>Send appointment reminders</strong> in the client’s window). From a
              client’s window, <strong>Send availability request</strong> emails them a link, from your business, to tell you
              when they are home; they need no account. When a practitioner taps <strong>On my way</strong>, the client gets one
              message from your business with about when they will arrive (by SMS when text messages are set up and the client has a
              mobile, else by email); the visit’s change log says whether it went. Turn these off in Settings → Account settings.
            </li>
            <li>
              <strong>Follow the day</strong>: as practitioners record their visits on their phones, each visit’s details show
              where it is (On my way, Arrived, Done or Could not attend, with the reason) and the actual times, and mark an
              arrival far from the client’s address. <strong>Reopen the visit</strong> sets a visit recorded by mistake back to
              not started; every step is in the visit’s change log. Today’s <strong>Day schedule</strong> follows the day by
              itself (a step shows within seconds): each visit shows its state as a mark (the legend under the lanes says
              them) and its actual times beside the planned ones, a banner names the visits with no check-in 15 minutes after
              their planned start, a practitioner on the way 15 minutes beyond the travel, and one still there 15 minutes
              beyond the booked length (change it in Account settings: <strong>A visit is overdue after</strong>), each of
              them is marked <strong>Late</strong> or <strong>Over</strong>, and a practitioner who arrived late at their last
              visit shows <strong>Running N min late</strong>. The dashboard lists them too, and keeps itself up to date.
            </li>
            <li>
              <strong>Re-plan the rest of today</strong>: when a practitioner calls in sick or their car breaks down, choose{' '}
              <strong>Unavailable from now</strong> under their name on today’s Day schedule, with the time they stop and why.
              Their visits after that time are marked as booked on leave, and Optimise opens on today with{' '}
              <strong>Reassign</strong>: visits done or under way stay as they are, each practitioner starts from where they are,
              and the rules hold. The proposal lists the clients whose arrival moves by 15 minutes or more (change it in Account
              settings); keep <strong>Tell these clients the new arrival time</strong> ticked and Apply sends each of them one
              message with the new time. Visits nobody can take are listed with the reason: move or cancel them by hand.
            </li>
          </ol>
          <p>Times are shown in your business’s time zone, or in the practitioner’s own zone where it differs.</p>
        </Section>

        <Section title="Booking, rescheduling and cancelling visits">
          <ol className="list-decimal space-y-2 pl-5">
            <li>
              <strong>Book a visit</strong> where you plan: <strong>New visit</strong> on the day schedule, a click on free time
              in a practitioner’s lane (it fills in the practitioner and the time), <strong>Book a visit</strong> in a client’s
              details or on a Nearby search result. Choose the client, the appointment type (its duration), the day, and a time
              or a window (<em>Morning</em>, <em>Afternoon</em> or <em>Between…</em>). Choose the practitioner yourself, or press{' '}
              <strong>Best fit</strong>: Rounds prices the visit on every qualified practitioner’s day as it is — the travel it
              adds, their hours and leave, the client’s availability and the rules of home care — and shows the best few with
              the arrival, “+12 min travel”, <em>Preferred</em> and <em>Visited before</em>; <strong>Why not others?</strong> says
              why the rest are not offered. A booking that would break a hard rule is refused in words; nothing you typed is lost.
            </li>
            <li>
              The visit is in Rounds at once, on the practitioner’s route, and is written to Cliniko: its block says{' '}
              <strong>Saving to Cliniko…</strong> until Cliniko has it. If Cliniko is slow or does not answer, Rounds keeps
              trying and never books it twice; if it refuses or stays silent, the block says <strong>Not saved</strong> and the
              visit’s details say why, with <strong>Try again</strong> and <strong>Discard</strong>.
            </li>
            <li>
              <strong>Reschedule</strong> (in the visit’s details, Reschedule or cancel) moves a visit to another day, time or
              practitioner — or to the best fit that day — with the reason in the change log; Cliniko is updated at once and the
              new time is the one agreed with the client. If someone changed the visit in Cliniko since Rounds read it, Rounds
              does not overwrite it: the visit says <strong>Changed in Cliniko</strong>, its details show the differences, and you
              choose <strong>Overwrite Cliniko</strong> or <strong>Keep Cliniko’s version</strong>.
            </li>
            <li>
              <strong>Cancel visit</strong> asks for Cliniko’s reason and a note, and can tell the client (when the business sends
              messages and the client has not turned them off). The visit leaves its route; <strong>Re-optimise …’s day</strong>
              closes the gap. Practitioners do not book, reschedule or cancel: their run sheet only shows their visits.
            </li>
          </ol>
        </Section>

        <Section title="Care plans and open visits">
          <ol className="list-decimal space-y-2 pl-5">
            <li>
              <strong>A care plan</strong> is a client’s visits that repeat each week. Open the client (Clients, then their row)
              and, under <strong>Care plan</strong>, press <strong>Add to care plan</strong>: the type of visit (its duration
              follows the type unless you change it), the days of the week, the window the visit starts in (e.g. 07:30 to 09:00),
              one or two carers, the first day, and whether it is ongoing or ends on a day; add preferred practitioners and notes
              if you like. Each plan shows its booked and open visits. <strong>Edit</strong> changes it from today on: its booked
              visits that no longer fit are cancelled in Cliniko and open again as the plan now says (past visits stay); <strong>End plan</strong> asks for its last day: its booked visits after it are cancelled in
              Cliniko and its open visits removed.
            </li>
            <li>
              <strong>Away or in hospital</strong>: under <strong>Away / in hospital</strong> in the client’s details, add the
              days, the reason and a note. The client’s care plans pause in those days: Rounds says how many booked visits it
              cancelled in Cliniko and how many open visits it removed. On{' '}
              <TextLink variant="prose" href="/settings/public-holidays">public holidays</TextLink> (Settings → Public holidays,
              kept by an administrator) care plans generate no visits.
            </li>
            <li>
              <strong>Open visits</strong> are visits that need a practitioner and have none yet: a care plan’s new visits,
              or a booked visit its practitioner cannot do (fell sick, and re-planning the day found no one for it): press{' '}
              <strong>Needs another practitioner</strong> in the visit’s details (Reschedule or cancel), say why if you like, and
              it is cancelled in Cliniko and waits in the open visits, its window its agreed time give or take its tolerance,
              with why. <TextLink variant="prose" href="/open-visits">Open visits</TextLink> (in the
              menu, counted on the dashboard, and said above the lanes of a day that has some) lists the next four weeks’ by day, each with why it is open. Nothing of an open
              visit is in Cliniko until a practitioner is chosen. <strong>Fill</strong> shows who could take it, cheapest first,
              with the arrival, the travel it adds and whether the client prefers them or they visited recently; choose one and
              press <strong>Book with …</strong>. <strong>Remove</strong> drops a visit no longer needed.
            </li>
            <li>
              <strong>Plan care visits</strong> on the same page generates the care plans’ visits from tomorrow for the weeks
              ahead (Settings → Account settings, “Care plan visits planned ahead”, 4 weeks unless changed, or the weeks you
              choose) and proposes a practitioner for every open visit of those weeks: qualified, within their hours and leave,
              the same few carers for a client week after week, balanced days. The proposal shows the visits placed and not
              (with why), the travel they add, hard breaks of the rules (none) and how many carers each client would see.{' '}
              <strong>Book N visits</strong> books the placed ones, each written to Cliniko; the others stay open.
            </li>
          </ol>
        </Section>

        <Section title="A practitioner’s day">
          <ol className="list-decimal space-y-2 pl-5">
            <li>
              Open <TextLink variant="prose" href="/appointments">Appointments</TextLink>: it opens on today’s
              <strong> Run sheet</strong>, your visits in the order you make them, with the arrival time told to each client,
              the travel between visits and the day on a map.
            </li>
            <li>
              Each visit shows the client’s address and phone number; <strong>Google Maps</strong>, <strong>Apple Maps</strong>{' '}
              and <strong>Waze</strong> open the directions on your phone, and <strong>Details</strong> opens the visit with its
              notes.
            </li>
            <li>
              Record each of today’s visits as it happens: <strong>On my way</strong> when you set off, <strong>Arrived</strong>{' '}
              at the door (your client is told about when you will arrive when you tap On my way, from where your phone is) and{' '}
              <strong>Done</strong> when you leave (one tap; <strong>Add a note</strong> on the done visit if you want one), or{' '}
              <strong>Could not attend</strong> with the reason (client not home, refused, in hospital, or other in your words).
              Each step keeps its time and, when your phone allows it, where you were; an arrival further from the client’s address
              than your office set (Settings → Account settings, 300 m unless changed) is recorded and marked for the office. A step that did not go through says so: press{' '}
              <strong>Try again</strong> and it is recorded once, with the time you first pressed it. Only your coordinator can
              reopen a visit.
            </li>
            <li>
              No signal? Keep going: each step you take waits on your phone (the run sheet says how many) and is sent by
              itself, in order and with the time you pressed it, when the network is back. Add Rounds to your home screen
              (your browser’s <strong>Install</strong> or <strong>Add to Home Screen</strong>) and it opens your day even
              without signal. A step Rounds refuses when it arrives (say, your coordinator reopened the visit meanwhile) is never
              lost unseen: it stays on the visit as <strong>Not recorded</strong> with the reason until you dismiss it, and the
              office sees it in the visit’s change log. Logging out clears your day from the phone but keeps the steps not yet
              sent: Rounds asks first, can send them before you go, and otherwise sends them when you log in again on this
              phone (nobody else who logs in on it sees them).
            </li>
            <li>
              The <strong>List</strong> and <strong>Day schedule</strong> show other days. You see only your own visits and the
              clients you visit; your coordinator changes the plan, optimises the day and moves visits.
            </li>
          </ol>
        </Section>

        <Section title="The dashboard">
          <p>
            Administrators and staff see what needs doing, each tile with a link to the page that fixes it: today’s and
            tomorrow’s visits per practitioner; visits arriving outside the client’s availability and visits with too
            little time for the travel before them (today and tomorrow); unrouted days (in the next 7 days, a practitioner
            with a start place and working hours that day who has visits but no applied route); stale routes (routes whose
            visits changed after they were applied); visits booked while their practitioner is on leave (the next 4 weeks); open visits waiting for a practitioner (the next 4 weeks); clients missing an address; the last import and export (staff: the
            last they started); and this week’s travel of optimised routes and utilisation (visit hours ÷ working hours
            from the practitioners’ settings) against last week. Practitioners see their next visit and today’s run sheet.
          </p>
        </Section>

        <Section title="Who can do what">
          <ul className="list-disc space-y-1 pl-5">
            <li><strong>Administrators</strong> can do everything, including the import and export history, reports and settings.</li>
            <li><strong>Staff</strong> work with appointments and clients, optimise days, keep care plans, fill open visits, and start imports and exports.</li>
            <li><strong>Practitioners</strong> see their own appointments and the clients they visit.</li>
          </ul>
          <p>If a page needs an administrator account, Rounds says so and takes you to the dashboard.</p>
        </Section>

        <Section title="Where the settings are">
          <p>
            Administrators find everything under <TextLink variant="prose" href="/settings">Settings</TextLink>: the connection to
            your practice management system (Provider account), Sync settings, Practitioners (their colours, places, hours and leave), Tags,
            Appointment types, Public holidays, and Users: invite a colleague by email (they choose their password from the link, which
            works once for 7 days), change their role, or deactivate someone who leaves. Everyone can change their own name, email and password under{' '}
            <TextLink variant="prose" href="/settings/my-account">My account</TextLink>, also in the menu under your avatar.
          </p>
        </Section>
      </div>
    </>
  );
}
