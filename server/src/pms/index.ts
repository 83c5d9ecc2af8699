/**
 * Entry point of the PMS layer for the rest of the server: the adapter contract, its errors, and the one factory
 * that builds an adapter. Which key and base URL a business's adapter gets is decided by the sync module, which
 * owns provider accounts. The sandbox is separate (./sandbox/index.ts).
 */
import type { PmsAdapter } from './adapter';
import { createClinikoAdapter, type ClinikoAdapterOptions } from './cliniko/cliniko-adapter';

export * from './adapter';
export { CLINIKO_DEFAULTS } from './cliniko/cliniko-adapter';
export type { ClinikoHttpEvent } from './cliniko/http-client';

export type PmsSystem = 'cliniko';

/** Adapter settings a caller may override (tests shorten timeouts and backoff; the bench shrinks the window). */
export type AdapterTuning = Omit<Partial<ClinikoAdapterOptions>, 'apiKey' | 'contactEmail' | 'baseUrl'>;

export interface CreatePmsAdapterOptions extends AdapterTuning {
  system: PmsSystem;
  apiKey: string;
  /** Goes into the User-Agent, which Cliniko requires. */
  contactEmail: string;
  /** API root override (CLINIKO_BASE_URL, the sandbox's URL); null or absent: the key's own shard. */
  baseUrl?: string | null;
}

/** Builds the adapter for a practice management system (only Cliniko so far). */
export function createPmsAdapter(options: CreatePmsAdapterOptions): PmsAdapter {
  const { system, ...rest } = options;
  switch (system) {
    case 'cliniko':
      return createClinikoAdapter(rest);
    default:
      throw new Error(`system: unsupported practice management system ${JSON.stringify(system)}`);
  }
}
