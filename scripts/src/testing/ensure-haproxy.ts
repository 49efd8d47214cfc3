import { spawnSync } from 'node:child_process';

/**
 * The load-balancer test and bench run Debian's HAProxy (`deploy/haproxy.cfg`). On a fresh machine
 * the test command installs it (as root, with apt-get, like Chromium); otherwise it says what is
 * missing and that test fails loudly.
 */
export function ensureHaproxy(): void {
  if (spawnSync('haproxy', ['-v'], { stdio: 'ignore' }).status === 0) return;
  if (process.getuid?.() !== 0) {
    console.warn('HAProxy is missing and this is not root: run "apt-get install -y haproxy" (the load-balancer test will fail).');
    return;
  }
  console.log('Installing HAProxy for the load-balancer test (apt-get install -y haproxy)…');
  const environment = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  let install = spawnSync('apt-get', ['install', '-y', 'haproxy'], { stdio: 'inherit', env: environment });
  if (install.status !== 0) {
    spawnSync('apt-get', ['update'], { stdio: 'inherit' });
    install = spawnSync('apt-get', ['install', '-y', 'haproxy'], { stdio: 'inherit', env: environment });
  }
  if (install.status !== 0) console.warn('Installing HAProxy failed; the load-balancer test will fail.');
}
