import { ensureDebianPackage } from './ensure-debian-package.ts';

/** The load-balancer test and bench run Debian's HAProxy (`deploy/haproxy.cfg`). */
export function ensureHaproxy(): void {
  ensureDebianPackage('haproxy', ['-v'], 'haproxy', 'the load-balancer test');
}
