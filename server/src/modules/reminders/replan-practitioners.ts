// Telling practitioners that a re-plan changed their day: once Apply has committed, each practitioner whose day gained
// or lost visits (a visit given to another practitioner) gets one e-mail per day changed, listing the visits added
// (with their new arrival) and those taken away, at their login's address (else the practitioner's own). The phone's
// day shows the same as "Your day changed". A failed send is logged and never fails Apply.
import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/client';
import type { AppContext } from '../../http/context';
import type { ReplannedArrival } from './eta-replan';
import { dateOf, escapeHtml, timeOf } from './message';

interface VisitOfChange { id: number; client_name: string | null }
interface PractitionerToTell { id: number; first_name: string; emails: string[] | null; business_name: string; time_zone: string }

/** "Cora Bell at 2:30 pm" (a visit without a client: "A visit at 2:30 pm"). */
const visitWords = (name: string | null, at: Date, timeZone: string) => `${name?.trim() || 'A visit'} at ${timeOf(at, timeZone)}`;

export async function tellPractitionersOfReplan(
  ctx: AppContext, businessAccountId: number, changes: readonly ReplannedArrival[], byName: string,
): Promise<void> {
  const moved = changes.filter((change) => change.practitionerBefore !== change.practitionerAfter);
  if (moved.length === 0) return;
  try {
    const ids = [...new Set(moved.flatMap((change) => [change.practitionerBefore, change.practitionerAfter]))];
    const visitIds = moved.map((change) => change.appointmentId);
    const [people, visits] = await Promise.all([
      queryRows<PractitionerToTell>(ctx.db, sql`
        SELECT p.id, p.first_name, b.name AS business_name, b.time_zone,
               coalesce(
                 (SELECT array_agg(u.email ORDER BY u.id) FROM users u
                  WHERE u.business_account_id = p.business_account_id AND u.role = 'PRACTITIONER' AND p.id = ANY(u.associated_practitioner_ids)),
                 CASE WHEN p.email LIKE '%@%' THEN ARRAY[p.email] END) AS emails
        FROM practitioners p JOIN business_accounts b ON b.id = p.business_account_id
        WHERE p.business_account_id = ${businessAccountId} AND p.id = ANY(${`{${ids.join(',')}}`}::int[])`),
      queryRows<VisitOfChange>(ctx.db, sql`
        SELECT a.id, btrim(c.first_name || ' ' || c.last_name) AS client_name
        FROM appointments a LEFT JOIN clients c ON c.id = a.client_id
        WHERE a.business_account_id = ${businessAccountId} AND a.id = ANY(${`{${visitIds.join(',')}}`}::int[])`),
    ]);
    const names = new Map(visits.map((visit) => [visit.id, visit.client_name]));
    for (const person of people) {
      if (!person.emails?.length) continue;
      for (const day of [...new Set(moved.map((change) => change.day))].sort()) {
        const ofDay = moved.filter((change) => change.day === day).sort((a, b) => a.after.getTime() - b.after.getTime());
        const added = ofDay.filter((change) => change.practitionerAfter === person.id)
          .map((change) => visitWords(names.get(change.appointmentId) ?? null, change.after, person.time_zone));
        const removed = ofDay.filter((change) => change.practitionerBefore === person.id)
          .map((change) => visitWords(names.get(change.appointmentId) ?? null, change.before, person.time_zone));
        if (added.length === 0 && removed.length === 0) continue;
        const lines = [
          ...(added.length ? [`Added: ${added.join('; ')}`] : []),
          ...(removed.length ? [`Taken off your day: ${removed.join('; ')}`] : []),
        ];
        const intro = `${byName} re-planned your day, ${dateOf(day)}.`;
        const link = `${ctx.config.publicUrl}/`;
        for (const to of person.emails) {
          await ctx.mailer.send({
            to, businessAccountId, fromName: person.business_name, subject: `Your day changed: ${dateOf(day)}`,
            text: [`Hello ${person.first_name},`, '', intro, '', ...lines, '', `Open Rounds to see your day: ${link}`].join('\n'),
            html: [
              '<!doctype html><html><body style="font-family: sans-serif; line-height: 1.5">',
              `<p>Hello ${escapeHtml(person.first_name)},</p>`, `<p>${escapeHtml(intro)}</p>`,
              ...lines.map((line) => `<p>${escapeHtml(line)}</p>`),
              `<p><a href="${escapeHtml(link)}">Open Rounds to see your day</a></p>`, '</body></html>',
            ].join('\n'),
          });
        }
      }
    }
  } catch (error) {
    ctx.log.warn({ err: error, businessAccountId }, 'telling practitioners of a re-plan failed');
  }
}
