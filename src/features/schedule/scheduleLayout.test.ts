import { describe, expect, it } from 'vitest';
import { draggedStart, layoutSchedule } from './scheduleLayout';
import type { AppointmentSummary } from '../../entities/appointments/api';

const BRISBANE = 'Australia/Brisbane';
const practitioner = (id: number, name: string, zone = 'Australia/Brisbane') => ({ id, full_name: name, time_zone: zone });

function visit(id: number, startsAt: string, minutes: number, who = practitioner(1, 'Pat'), extra: Partial<AppointmentSummary> = {}): AppointmentSummary {
  const ends = new Date(Date.parse(startsAt) + minutes * 60_000).toISOString();
  return {
    id, starts_at: startsAt, ends_at: ends, arrive_at: null, route_id: null, status: 'BOOKED', suburb: null, lat: null, lng: null, geo_precision: 'none',
    business_location_id: null, client: null, practitioner: who, appointment_type: null, visit_state: 'not_started', visit: null, pms_write_state: null, ...extra,
  };
}

describe('day schedule layout', () => {
  it('puts blocks at their arrival in the business zone, with gaps and overlaps', () => {
    const layout = layoutSchedule([
      visit(2, '2026-11-24T01:00:00Z', 30), // 11:00
      visit(1, '2026-11-23T23:00:00Z', 60), // 09:00-10:00
      visit(3, '2026-11-24T01:15:00Z', 30), // 11:15, overlaps 11:00-11:30
    ], BRISBANE);
    const [lane] = layout.lanes;
    expect(lane.blocks.map((block) => [block.appointment.id, block.from, block.to, block.overlapsPrevious])).toEqual([
      [1, 540, 600, false],
      [2, 660, 690, false],
      [3, 675, 705, true],
    ]);
    expect(lane.gaps).toEqual([{ from: 600, to: 660, minutes: 60, nextAppointmentId: 2 }]);
    expect([layout.startMinute, layout.endMinute]).toEqual([360, 1080]);
  });

  it('widens the axis for early and late visits, sorts lanes by name and skips cancelled visits', () => {
    const layout = layoutSchedule([
      visit(1, '2026-11-23T19:30:00Z', 30, practitioner(2, 'Zoe')), // 05:30
      visit(2, '2026-11-24T09:00:00Z', 60, practitioner(1, 'Adam')), // 19:00-20:00
      visit(3, '2026-11-24T02:00:00Z', 60, practitioner(1, 'Adam'), { status: 'CANCELLED' }),
    ], BRISBANE);
    expect(layout.lanes.map((lane) => lane.practitionerName)).toEqual(['Adam', 'Zoe']);
    expect(layout.lanes[0].blocks).toHaveLength(1);
    expect([layout.startMinute, layout.endMinute]).toEqual([300, 1200]);
  });

  it('shows every practitioner on the business’s clock, the one the page names', () => {
    const layout = layoutSchedule([visit(1, '2026-11-23T23:00:00Z', 60, practitioner(1, 'Perth', 'Australia/Perth'))], BRISBANE);
    expect(layout.lanes[0].blocks[0].from).toBe(9 * 60);
  });
});

describe('a dragged block', () => {
  const axis = { startMinute: 360, endMinute: 1080 }; // 06:00–18:00
  const block = { from: 542, to: 602 }; // 09:02–10:02

  it('lands on whole 5 minutes, or keeps its time when it hardly moved sideways', () => {
    expect(draggedStart(block, 0, axis)).toBe(542);
    expect(draggedStart(block, 2, axis)).toBe(542);
    expect(draggedStart(block, 31, axis)).toBe(575);
    expect(draggedStart(block, -3.5, axis)).toBe(540);
  });

  it('stays whole on the axis', () => {
    expect(draggedStart(block, -400, axis)).toBe(360);
    expect(draggedStart(block, 600, axis)).toBe(1020);
  });
});
