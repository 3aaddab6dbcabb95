/** Chromium through playwright-core for the web suites, console-error capture, screenshots. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type ConsoleMessage, type Page } from 'playwright-core';
import { chromiumPath } from '../../support/requires.js';

export const SCREENSHOT_DIR = join(process.cwd(), 'test-results', 'web');

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
    timeout: 60_000,
  });
}

/** Collects console errors and uncaught page errors of a page (the app must produce none). */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m: ConsoleMessage) => {
    if (m.type() === 'error') errors.push(`${m.text()} @ ${m.location().url}`);
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  return errors;
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: false });
  return path;
}

/** Origins of all requests a page makes (the app must stay on its own origin: no tiles, no CDN). */
export function watchOrigins(page: Page): Set<string> {
  const origins = new Set<string>();
  page.on('request', (r) => {
    const u = r.url();
    if (u.startsWith('http')) origins.add(new URL(u).origin);
  });
  return origins;
}
