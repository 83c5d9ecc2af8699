// The ETA messages' SQL: what a message needs to know about its visit (the client, the practitioner, the business,
// the step), and the eta_messages record (claimed once per visit, kind and planned arrival, then marked).
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client';
import type { PhoneNumber } from '../../db/schema';
import type { EtaMessageKind, EtaMessageStatus, ReminderChannel } from '../../db/schema-reminders';

export interface EtaVisit {
  appointment_id: number;
  cancelled: boolean;
  visit_state: string;
  planned_arrival: Date | string;
  /** The visit's point, else its client's. */
  lat: number | null;
  lng: number | null;
  client_id: number | null;
  client_first_name: string | null;
  email: string | null;
  phone_numbers: PhoneNumber[] | null;
  client_messages_enabled: boolean | null;
  practitioner_first_name: string;
  business_name: string;
  time_zone: string;
  contact_email: string;
  contact_phone: string;
  eta_messages_enabled: boolean;
  step_at: Date | string | null;
  step_lat: number | null;
  step_lng: number | null;
}

export async function etaVisit(db: Db, businessAccountId: number, appointmentId: number, visitStepId: number | null): Promise<EtaVisit | undefined> {
  const [row] = await queryRows<EtaVisit>(db, sql`
    SELECT a.id AS appointment_id, a.cancelled_at IS NOT NULL AS cancelled, a.visit_state,
           coalesce(a.arrive_at, a.starts_at) AS planned_arrival,
           CASE WHEN a.lat IS NOT NULL AND a.lng IS NOT NULL THEN a.lat ELSE c.lat END AS lat,
           CASE WHEN a.lat IS NOT NULL AND a.lng IS NOT NULL THEN a.lng ELSE c.lng END AS lng,
           c.id AS client_id, c.first_name AS client_first_name, c.email, c.phone_numbers, c.reminders_enabled AS client_messages_enabled,
           p.first_name AS practitioner_first_name,
           b.name AS business_name, b.time_zone, b.contact_email, b.contact_phone, b.eta_messages_enabled AND b.active AS eta_messages_enabled,
           s.at AS step_at, s.lat AS step_lat, s.lng AS step_lng
    FROM appointments a
    JOIN business_accounts b ON b.id = a.business_account_id
    JOIN practitioners p ON p.id = a.practitioner_id AND p.business_account_id = a.business_account_id
    LEFT JOIN clients c ON c.id = a.client_id AND c.business_account_id = a.business_account_id
    LEFT JOIN visit_steps s ON s.id = ${visitStepId} AND s.appointment_id = a.id AND s.business_account_id = a.business_account_id
    WHERE a.business_account_id = ${businessAccountId} AND a.id = ${appointmentId}`);
  return row;
}

/**
 * Records that the visit's message of this kind about this planned arrival is being sent: its id, or null when one
 * was already recorded and nothing is to be sent — for a re-plan, one about the same arrival; for On my way, any one
 * (a client is told once per visit that the practitioner is on the way, however the arrival moved or the visit was
 * reopened since). `overRate`: the business's messages claimed in the last minute (not counting those not sent)
 * reached `perMinute`, so this one is not to be sent. Claimed under the business's lock, so the count is exact.
 */
export async function claimEtaMessage(
  db: Db, businessAccountId: number, message: { appointmentId: number; kind: EtaMessageKind; plannedArrival: Date; visitStepId: number | null },
  perMinute: number,
): Promise<{ id: number; overRate: boolean } | null> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`eta-messages:${businessAccountId}`}))`);
    const [row] = await queryRows<{ id: number }>(tx, sql`
      INSERT INTO eta_messages (business_account_id, appointment_id, kind, planned_arrival, visit_step_id)
      SELECT ${businessAccountId}, ${message.appointmentId}, ${message.kind}, ${message.plannedArrival.toISOString()}::timestamptz, ${message.visitStepId}
      WHERE ${message.kind} <> 'on_my_way'
        OR NOT EXISTS (SELECT 1 FROM eta_messages e WHERE e.appointment_id = ${message.appointmentId} AND e.kind = 'on_my_way')
      ON CONFLICT (appointment_id, kind, planned_arrival) DO NOTHING
      RETURNING id`);
    if (!row) return null;
    const [recent] = await queryRows<{ count: number | string }>(tx, sql`
      SELECT count(*) AS count FROM eta_messages
      WHERE business_account_id = ${businessAccountId} AND id <> ${row.id} AND status <> 'NOT_SENT' AND created_at > now() - interval '1 minute'`);
    return { id: Number(row.id), overRate: Number(recent.count) >= perMinute };
  });
}

export async function finishEtaMessage(
  db: Db, id: number, outcome: { status: Exclude<EtaMessageStatus, 'SENDING'>; channel: ReminderChannel | null; eta: Date | null; error: string | null },
): Promise<void> {
  await queryRows(db, sql`
    UPDATE eta_messages SET status = ${outcome.status}, channel = ${outcome.channel}, eta = ${outcome.eta?.toISOString() ?? null}::timestamptz,
      error = ${outcome.error}, sent_at = CASE WHEN ${outcome.status} = 'SENT' THEN now() ELSE NULL END, updated_at = now()
    WHERE id = ${id}
    RETURNING id`);
}
