import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';

/** Debian's `chromium` package; the test command installs it when missing (scripts/src/testing/ensure-chromium.ts). */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Headless, no sandbox (CI runs as root), nothing that reaches for the network on its own. */
const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
];

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(chromiumPath))
    throw new Error(`Chromium is missing at ${chromiumPath}: apt-get install -y chromium (pnpm test does it as root)`);
  return chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgs });
}

/** Every page a test passes through is kept as `test-artifacts/e2e/<test>/<nn>-<step>.png`. */
export function screenshots(testName: string) {
  const dir = resolve(import.meta.dirname, '../../../test-artifacts/e2e', testName);
  mkdirSync(dir, { recursive: true });
  let step = 0;
  return async (page: Page, name: string) => {
    step += 1;
    await page.screenshot({ path: join(dir, `${String(step).padStart(2, '0')}-${name}.png`), fullPage: true });
  };
}

/**
 * Closes a page opened with `browser.newPage()` by disposing of its own context. `page.close()` waits, with no
 * timeout, for Chromium to report the page gone, and Chromium drops a close that races a cross-origin navigation
 * commit (a redirect back to an app on another port, just seen arriving at that app's server): the test then hangs
 * until its timeout. Disposing of the context ends every page in it whatever they are doing.
 */
export async function closePage(page: Page): Promise<void> {
  await page.context().close();
}
