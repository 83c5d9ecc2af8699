// The e2e project's global set-up: one Chromium for the whole run, which each file connects to (launchBrowser), and
// the seeded demo database every file starts from, made before any file runs (so files running side by side never
// race to make it).
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './browser';
import { seededDemoDataDir } from './server';

export default async function setup(project: TestProject) {
  const [browserServer] = await Promise.all([
    chromium.launchServer({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS }),
    seededDemoDataDir(),
  ]);
  project.provide('chromiumWsEndpoint', browserServer.wsEndpoint());
  return () => browserServer.close();
}
