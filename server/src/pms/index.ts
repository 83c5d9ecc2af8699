/**
 * Entry point of the PMS layer for the rest of the server: the adapter contract, its errors, and a factory
 * that builds the adapter for a provider account. The sandbox is separate (./sandbox/index.ts).
 */
import type { PmsAdapter } from './adapter';
import { createClinikoAdapter, type ClinikoAdapterOptions } from './cliniko/cliniko-adapter';

export * from './adapter';
export { ClinikoAdapter, CLINIKO_DEFAULTS, createClinikoAdapter, type ClinikoAdapterOptions } from './cliniko/cliniko-adapter';
export type { ClinikoHttpEvent } from './cliniko/http-client';
export { resolveClinikoBaseUrl, shardFromApiKey } from './cliniko/base-url';
export { SlidingWindowRateLimiter, rateLimiterForKey } from './cliniko/rate-limiter';

export type PmsSystem = 'cliniko';

export type CreatePmsAdapterOptions = { system: PmsSystem } & ClinikoAdapterOptions;

/** Builds the adapter for a provider account's system (only Cliniko so far). */
export function createPmsAdapter(options: CreatePmsAdapterOptions): PmsAdapter {
  const { system, ...rest } = options;
  switch (system) {
    case 'cliniko':
      return createClinikoAdapter(rest);
    default:
      throw new Error(`system: unsupported practice management system ${JSON.stringify(system)}`);
  }
}
