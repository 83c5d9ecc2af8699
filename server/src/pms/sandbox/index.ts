/** The Cliniko-compatible sandbox: in-process server, its dataset and fault knobs. */
export { startSandbox, SANDBOX_DEMO_API_KEY, type SandboxHandle, type SandboxOptions, type SandboxRequestLogEntry } from './server';
export {
  createSandboxDataset,
  APPOINTMENT_TYPE_SPECS,
  BRISBANE_TIME_ZONE,
  DEFAULT_SANDBOX_SEED,
  type SandboxDataset,
  type SandboxDatasetOptions,
  type SandboxAppointment,
  type SandboxPatient,
  type SandboxPractitioner,
  type SandboxBusiness,
  type SandboxAppointmentType,
} from './dataset';
export { NO_FAULTS, type SandboxFaults } from './faults';
