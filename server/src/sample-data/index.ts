/**
 * The building blocks of generated Brisbane data, shared by the demo care provider (server/src/demo/generate.ts)
 * and the Cliniko-compatible sandbox (server/src/pms/sandbox/dataset.ts): one seeded generator, one set of names,
 * one catalogue of appointment types and professions. Pure: no database, no I/O.
 */
export { SeededRandom } from './random';
export { APPOINTMENT_NOTES, FIRST_NAMES, LAST_NAMES, PRACTITIONER_FIRST_NAMES } from './names';
export { APPOINTMENT_TYPES, PROFESSIONS, SAMPLE_TIME_ZONE, type AppointmentTypeName } from './catalogue';
