import { ensureDebianPackage } from './ensure-debian-package.ts';

/** The Redis rate-limit counter's tests run Debian's redis-server (started per test file, no persistence). */
export function ensureRedis(): void {
  ensureDebianPackage('redis-server', ['--version'], 'redis-server', 'the Redis rate-limit tests');
}
