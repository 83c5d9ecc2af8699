/** The Cliniko-compatible sandbox: in-process server, its dataset and fault knobs. */
export { startSandbox, SANDBOX_DEMO_API_KEY, type SandboxHandle, type SandboxOptions, type SandboxRequestLogEntry } from './server';
export {
  createSandboxDataset,
  DEFAULT_SANDBOX_SEED,
  isoAt,
  type SandboxDataset,
  type SandboxDatasetOptions,
  type SandboxAppointment,
  type SandboxPatient,
  type SandboxPractitioner,
  type SandboxBusiness,
  type SandboxAppointmentType,
} from './dataset';
export { NO_FAULTS, type SandboxFaults } from './faults';
