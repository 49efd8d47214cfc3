import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The end-to-end tests drive Debian's Chromium. On a fresh machine the test command installs it
 * (as root, with apt-get); otherwise it says what is missing and the browser tests fail loudly.
 */
export function ensureChromium(): void {
  if (existsSync(chromiumPath)) return;
  if (process.getuid?.() !== 0) {
    console.warn(
      `Chromium is missing at ${chromiumPath} and this is not root: run "apt-get install -y chromium" (the browser tests will fail).`,
    );
    return;
  }
  console.log('Installing Chromium for the end-to-end tests (apt-get install -y chromium)…');
  let install = spawnSync('apt-get', ['install', '-y', 'chromium'], { stdio: 'inherit' });
  if (install.status !== 0) {
    spawnSync('apt-get', ['update'], { stdio: 'inherit' });
    install = spawnSync('apt-get', ['install', '-y', 'chromium'], { stdio: 'inherit' });
  }
  if (install.status !== 0) console.warn('Installing Chromium failed; the browser tests will fail.');
}
