/** The time zone of the generated Brisbane care provider. */
export const SAMPLE_TIME_ZONE = 'Australia/Brisbane';

/** The six home-care appointment types of the demo and the sandbox, in this order. */
export const APPOINTMENT_TYPES = [
  { name: 'Personal care', duration: 60, category: 'Support', color: '#3b82f6' },
  { name: 'Nursing visit', duration: 45, category: 'Nursing', color: '#ef4444' },
  { name: 'Physiotherapy', duration: 60, category: 'Allied health', color: '#10b981' },
  { name: 'Domestic assistance', duration: 90, category: 'Support', color: '#f59e0b' },
  { name: 'Wound care', duration: 30, category: 'Nursing', color: '#8b5cf6' },
  { name: 'Medication check', duration: 15, category: 'Nursing', color: '#ec4899' },
] as const;

export type AppointmentTypeName = (typeof APPOINTMENT_TYPES)[number]['name'];

/**
 * What each profession is booked for, with how often (weights need not sum to 1), and what it is qualified to deliver
 * (the appointment types the PMS lists for each of its practitioners; every booked type among them). Nurses deliver
 * nursing, wound care and medication checks (an enrolled nurse also personal care); support workers personal care,
 * domestic assistance and medication prompts; the physiotherapist physiotherapy.
 */
export const PROFESSIONS: readonly {
  designation: string;
  types: readonly (readonly [AppointmentTypeName, number])[];
  qualifications: readonly AppointmentTypeName[];
}[] = [
  {
    designation: 'Registered Nurse', types: [['Nursing visit', 5], ['Wound care', 3], ['Medication check', 2]],
    qualifications: ['Nursing visit', 'Wound care', 'Medication check'],
  },
  {
    designation: 'Support Worker', types: [['Personal care', 5], ['Domestic assistance', 3], ['Medication check', 1]],
    qualifications: ['Personal care', 'Domestic assistance', 'Medication check'],
  },
  { designation: 'Physiotherapist', types: [['Physiotherapy', 1]], qualifications: ['Physiotherapy'] },
  {
    designation: 'Support Worker', types: [['Personal care', 4], ['Domestic assistance', 4]],
    qualifications: ['Personal care', 'Domestic assistance', 'Medication check'],
  },
  {
    designation: 'Enrolled Nurse', types: [['Medication check', 3], ['Wound care', 2], ['Personal care', 2]],
    qualifications: ['Nursing visit', 'Wound care', 'Medication check', 'Personal care'],
  },
];
