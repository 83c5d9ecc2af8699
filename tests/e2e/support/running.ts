// One test file's product and browser: started once before its tests, stopped after them.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from './browser';
import { sandboxApiUrl } from './sandbox';
import { freePort, startProduct, type RunningProduct } from './server';

export interface Running { product: RunningProduct; browser: Browser }

/** Registers the file's beforeAll/afterAll; the fields are set once beforeAll has run. */
export function useProductAndBrowser(env: Record<string, string> = {}): Running {
  const running = {} as Running;
  beforeAll(async () => {
    [running.product, running.browser] = await Promise.all([startProduct(env), launchBrowser()]);
  });
  afterAll(async () => {
    await running.browser?.close();
    await running.product?.stop();
  });
  return running;
}

/**
 * As useProductAndBrowser, with the product's Cliniko sandbox on a port of its own, so the file reads and changes the
 * PMS over HTTP (`sandbox.url`, set once beforeAll has run).
 */
export function useProductWithSandbox(env: Record<string, string> = {}): { running: Running; sandbox: { url: string } } {
  const own = { ...env };
  const sandbox = { url: '' };
  beforeAll(async () => {
    const port = await freePort();
    own.SANDBOX_PORT = String(port);
    sandbox.url = sandboxApiUrl(port);
  });
  return { running: useProductAndBrowser(own), sandbox };
}
