// Optimisation runs, typed by the contract: starting one, following it, cancelling it, applying or discarding its
// proposal, and undoing an applied one. The optimisation-run machine's default effects call these; the schedule feature's apply and discard
// mutations call the same ones. Failures are thrown as ApiError with a fallback in words.
import type { ApiClient } from './client';
import { unwrap } from './errors';
import type { components } from './schema';

type Schemas = components['schemas'];
export type Optimization = Schemas['Optimization'];
export type OptimizationRequest = Schemas['OptimizationRequest'];
export type OptimizationMode = Schemas['OptimizationMode'];
export type OptimizationProposal = Schemas['OptimizationProposal'];
export type Route = Schemas['Route'];

export interface AppliedOptimization {
  optimization: Optimization;
  routes: Route[];
  /** Apply's: how many clients are being told their new arrival. */
  clients_told?: number;
}

export const OPTIMIZATION_ERRORS = {
  create: 'An error has occurred. Could not start the optimisation.',
  poll: "An error has occurred. Could not load the optimisation's progress.",
  cancel: 'An error has occurred. Could not cancel the optimisation.',
  apply: 'An error has occurred. Could not apply the proposal.',
  discard: 'An error has occurred. Could not discard the proposal.',
  undo: 'An error has occurred. Could not undo the optimisation.',
} as const;

const byId = (id: number) => ({ params: { path: { id } } });

export async function createOptimization(api: ApiClient, request: OptimizationRequest): Promise<Optimization> {
  return unwrap(await api.POST('/optimizations', { body: request }), OPTIMIZATION_ERRORS.create).optimization;
}

export async function fetchOptimization(api: ApiClient, id: number, signal?: AbortSignal): Promise<Optimization> {
  return unwrap(await api.GET('/optimizations/{id}', { ...byId(id), signal }), OPTIMIZATION_ERRORS.poll).optimization;
}

export async function cancelOptimization(api: ApiClient, id: number): Promise<Optimization> {
  return unwrap(await api.POST('/optimizations/{id}/cancel', byId(id)), OPTIMIZATION_ERRORS.cancel).optimization;
}

export async function applyOptimization(api: ApiClient, id: number, { notifyClients = false } = {}): Promise<AppliedOptimization> {
  return unwrap(await api.POST('/optimizations/{id}/apply', { ...byId(id), ...(notifyClients ? { body: { notify_clients: true } } : {}) }), OPTIMIZATION_ERRORS.apply);
}

export async function discardOptimization(api: ApiClient, id: number): Promise<Optimization> {
  return unwrap(await api.POST('/optimizations/{id}/discard', byId(id)), OPTIMIZATION_ERRORS.discard).optimization;
}

/** Undoes an applied run: its visits and the day's routes back as they were (409 in words when a visit changed since). */
export async function undoOptimization(api: ApiClient, id: number): Promise<AppliedOptimization> {
  return unwrap(await api.POST('/optimizations/{id}/undo', byId(id)), OPTIMIZATION_ERRORS.undo);
}
