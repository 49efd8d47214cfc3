import { spawnSync } from 'node:child_process';

/**
 * Tests that run a program from Debian's packages (HAProxy, redis-server): on a fresh machine the
 * test command installs it (as root, with apt-get, like Chromium); otherwise it says what is missing
 * and the tests that need it fail loudly.
 */
export function ensureDebianPackage(program: string, versionArgs: string[], packageName: string, usedBy: string): void {
  if (spawnSync(program, versionArgs, { stdio: 'ignore' }).status === 0) return;
  if (process.getuid?.() !== 0) {
    console.warn(`${program} is missing and this is not root: run "apt-get install -y ${packageName}" (${usedBy} will fail).`);
    return;
  }
  console.log(`Installing ${program} for ${usedBy} (apt-get install -y ${packageName})…`);
  const environment = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  let install = spawnSync('apt-get', ['install', '-y', packageName], { stdio: 'inherit', env: environment });
  if (install.status !== 0) {
    spawnSync('apt-get', ['update'], { stdio: 'inherit' });
    install = spawnSync('apt-get', ['install', '-y', packageName], { stdio: 'inherit', env: environment });
  }
  if (install.status !== 0) console.warn(`Installing ${packageName} failed; ${usedBy} will fail.`);
}
