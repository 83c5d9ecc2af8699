import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { BRISBANE_SUBURBS, geocodeBrisbaneAddress } from '../../geo/brisbane-gazetteer';
import { createSandboxDataset } from './dataset';

const dataset = createSandboxDataset({ startDate: '2026-11-18' });

function brisbane(iso: string) {
  return Temporal.Instant.from(iso).toZonedDateTimeISO('Australia/Brisbane');
}

describe('createSandboxDataset', () => {
  it('is deterministic for a seed and start date, and differs for another seed', () => {
    expect(createSandboxDataset({ startDate: '2026-11-18' })).toEqual(dataset);
    expect(createSandboxDataset({ startDate: '2026-11-18', seed: 99 }).patients[0]).not.toEqual(dataset.patients[0]);
  });

  it('has the default sizes: 2 businesses, 15 practitioners (3 inactive), 6 types, 400 patients, 4 weeks', () => {
    expect(dataset.businesses).toHaveLength(2);
    expect(dataset.practitioners).toHaveLength(15);
    expect(dataset.practitioners.filter((p) => !p.active)).toHaveLength(3);
    expect(dataset.appointmentTypes.map((t) => [t.name, t.duration_in_minutes])).toEqual([
      ['Personal care', 60],
      ['Nursing visit', 45],
      ['Physiotherapy', 60],
      ['Domestic assistance', 90],
      ['Wound care', 30],
      ['Medication check', 15],
    ]);
    expect(dataset.patients).toHaveLength(400);
    // The start date moves back to its Monday.
    expect([dataset.firstDay, dataset.lastDay]).toEqual(['2026-11-16', '2026-12-13']);
  });

  it('uses 19-digit string ids, unique across all records', () => {
    const all = [
      dataset.user,
      ...dataset.businesses,
      ...dataset.practitioners,
      ...dataset.appointmentTypes,
      ...dataset.patients,
      ...dataset.appointments,
    ].map((r) => r.id);
    expect(all.every((id) => /^\d{19}$/.test(id))).toBe(true);
    expect(new Set(all).size).toBe(all.length);
  });

  it('books weekdays between 8:00 and 17:00 Brisbane time with 5-8 visits per practitioner day', () => {
    const perDay = new Map<string, number>();
    for (const a of dataset.appointments) {
      const start = brisbane(a.starts_at);
      const end = brisbane(a.ends_at);
      expect(start.dayOfWeek).toBeLessThanOrEqual(5);
      expect(start.hour * 60 + start.minute).toBeGreaterThanOrEqual(8 * 60);
      expect(end.hour * 60 + end.minute).toBeLessThanOrEqual(17 * 60);
      expect(start.toPlainDate().toString() >= dataset.firstDay && start.toPlainDate().toString() <= dataset.lastDay).toBe(true);
      const type = dataset.appointmentTypes.find((t) => t.id === a.appointment_type_id)!;
      expect(Date.parse(a.ends_at) - Date.parse(a.starts_at)).toBe(type.duration_in_minutes * 60_000);
      const key = `${a.practitioner_id}|${start.toPlainDate()}`;
      perDay.set(key, (perDay.get(key) ?? 0) + 1);
    }
    const counts = [...perDay.values()];
    // Long visits can push the last one past 17:00, which is then dropped, so a day may hold fewer than 5.
    expect(Math.max(...counts)).toBeLessThanOrEqual(8);
    expect(counts.filter((c) => c >= 5).length / counts.length).toBeGreaterThan(0.7);
  });

  it('never overlaps a practitioner’s visits', () => {
    const byPractitioner = new Map<string, { start: number; end: number }[]>();
    for (const a of dataset.appointments) {
      const list = byPractitioner.get(a.practitioner_id) ?? [];
      list.push({ start: Date.parse(a.starts_at), end: Date.parse(a.ends_at) });
      byPractitioner.set(a.practitioner_id, list);
    }
    for (const list of byPractitioner.values()) {
      list.sort((x, y) => x.start - y.start);
      for (let i = 1; i < list.length; i++) expect(list[i].start).toBeGreaterThanOrEqual(list[i - 1].end);
    }
  });

  it('includes some cancelled, archived and deleted appointments', () => {
    const total = dataset.appointments.length;
    const cancelled = dataset.appointments.filter((a) => a.cancelled_at).length;
    const archived = dataset.appointments.filter((a) => a.archived_at).length;
    expect(cancelled / total).toBeGreaterThan(0.02);
    expect(cancelled / total).toBeLessThan(0.1);
    expect(archived).toBeGreaterThan(0);
    expect(dataset.appointments.some((a) => a.deleted_at)).toBe(true);
    for (const a of dataset.appointments.filter((x) => x.cancelled_at)) {
      expect(a.cancellation_reason).not.toBeNull();
      expect(a.updated_at).toBe(a.cancelled_at);
    }
  });

  it('gives appointments only to the practitioner’s own appointment types and to real patients', () => {
    const patients = new Map(dataset.patients.map((p) => [p.id, p]));
    const practitioners = new Map(dataset.practitioners.map((p) => [p.id, p]));
    for (const a of dataset.appointments) {
      const practitioner = practitioners.get(a.practitioner_id)!;
      expect(practitioner.appointment_type_ids).toContain(a.appointment_type_id);
      expect(a.business_id).toBe(practitioner.business_id);
      const patient = patients.get(a.patient_id)!;
      expect(a.patient_name).toBe(`${patient.first_name} ${patient.last_name}`);
    }
  });

  it('places patients at gazetteer addresses whose coordinates the gazetteer reproduces', () => {
    const suburbNames = new Set(BRISBANE_SUBURBS.map((s) => s.name));
    const withAddress = dataset.patients.filter((p) => p.address_1);
    expect(withAddress.length / dataset.patients.length).toBeGreaterThan(0.95);
    for (const p of withAddress) {
      expect(suburbNames.has(p.city!)).toBe(true);
      const point = geocodeBrisbaneAddress(p)!;
      expect(point.precision).toBe('street');
      expect([point.lat, point.lng]).toEqual([p.latitude, p.longitude]);
      // Greater Brisbane.
      expect(p.latitude!).toBeGreaterThan(-27.7);
      expect(p.latitude!).toBeLessThan(-27.3);
      expect(p.longitude!).toBeGreaterThan(152.85);
      expect(p.longitude!).toBeLessThan(153.25);
    }
    const missing = dataset.patients.filter((p) => !p.address_1);
    expect(missing.every((p) => p.latitude === null && p.city === null)).toBe(true);
  });

  it('keeps every seeded timestamp before the dataset’s "today" (the Monday after the first day)', () => {
    const asOf = '2026-11-22T14:00:00Z';
    for (const list of [dataset.businesses, dataset.practitioners, dataset.patients, dataset.appointments]) {
      for (const record of list) {
        expect(record.updated_at <= asOf).toBe(true);
        expect(record.created_at <= record.updated_at).toBe(true);
      }
    }
  });

  it('scales to benchmark sizes and validates its options by name', () => {
    const big = createSandboxDataset({ startDate: '2026-11-16', patients: 2000, practitioners: 40, weeks: 10 });
    expect(big.patients).toHaveLength(2000);
    expect(big.appointments.length).toBeGreaterThan(7000);
    expect(() => createSandboxDataset({ businesses: 4 })).toThrow(/businesses/);
    expect(() => createSandboxDataset({ startDate: '2026-13-01' })).toThrow(/startDate/);
    expect(() => createSandboxDataset({ cancelledRate: 2 })).toThrow(/cancelledRate/);
  });
});

describe('geocodeBrisbaneAddress', () => {
  it('understands abbreviations, units and post codes, and falls back to the suburb', () => {
    const full = geocodeBrisbaneAddress({ address_1: '12 Merthyr Road', city: 'New Farm', post_code: '4005' })!;
    expect(geocodeBrisbaneAddress({ address_1: 'Unit 3, 12 Merthyr Rd', city: 'new farm' })).toMatchObject({
      lat: full.lat,
      lng: full.lng,
      precision: 'street',
    });
    expect(geocodeBrisbaneAddress({ address_1: '5 Nowhere Lane', city: 'New Farm' })).toMatchObject({ precision: 'suburb', postCode: '4005' });
    expect(geocodeBrisbaneAddress({ address_1: '5 Nowhere Lane', city: null, post_code: '4169' })?.precision).toBe('suburb');
    expect(geocodeBrisbaneAddress({ address_1: '1 Main Street', city: 'Melbourne', post_code: '3000' })).toBeNull();
  });
});
