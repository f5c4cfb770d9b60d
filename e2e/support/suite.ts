import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from './browser';
import { startServer, type RunningServer, type StaffGrants } from './server';

/**
 * The usual setup of a browser test file: a fresh server (with `env`) and a Chromium, started
 * side by side before the file's tests and both stopped after them. `ready` hands them over.
 * `browserArgs`: more Chromium flags for this file's browser (see launchBrowser).
 */
export function withServerAndBrowser(
  ready: (server: RunningServer & StaffGrants, browser: Browser) => void,
  env: Record<string, string> = {},
  browserArgs: string[] = [],
): void {
  let started: [RunningServer & StaffGrants, Browser] | [] = [];
  beforeAll(async () => {
    started = await Promise.all([startServer(env), launchBrowser(browserArgs)]);
    ready(...started);
  });
  afterAll(async () => {
    const [server, browser] = started;
    await browser?.close();
    await server?.stop();
  });
}
