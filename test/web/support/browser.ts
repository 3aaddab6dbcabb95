/** Chromium through playwright-core for the web suites, console-error capture, screenshots. */
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
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

const require = createRequire(import.meta.url);

/** axe-core's serious and critical findings (WCAG 2.1 A and AA) on the page as it is, one line each. */
export async function axeSeriousOrCritical(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8') });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (o: unknown) => Promise<{ violations: any[] }> } }).axe;
    const result = await axe.run({ runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa'] } });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n: { target: string[] }) => n.target.join(' ')).join(', ')}`);
  });
}
