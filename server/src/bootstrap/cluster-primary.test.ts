import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { readEnv } from '../config/env.ts';
import { readWorkers } from './cluster-primary.ts';

describe('WORKERS and SHUTDOWN_DELAY_SECONDS', () => {
  const postgres = { DATABASE_URL: 'postgres://somewhere/db' };

  it('reads WORKERS: 1 by default, auto = the cores, a number as it is', () => {
    expect(readWorkers({})).toBe(1);
    expect(readWorkers({ WORKERS: '' })).toBe(1);
    expect(readWorkers({ ...postgres, WORKERS: 'auto' })).toBe(availableParallelism());
    expect(readWorkers({ ...postgres, WORKERS: ' 3 ' })).toBe(3);
    // One worker is the plain server, with PGlite too.
    expect(readWorkers({ WORKERS: '1' })).toBe(1);
  });

  it('refuses a malformed WORKERS, and more than one without DATABASE_URL', () => {
    for (const value of ['0', '-1', '1.5', 'two', '257'])
      expect(() => readWorkers({ ...postgres, WORKERS: value })).toThrow(/WORKERS must be a whole number from 1 to 256 or auto/);
    expect(() => readWorkers({ WORKERS: '2' })).toThrow(/WORKERS > 1 needs DATABASE_URL/);
  });

  it('reads SHUTDOWN_DELAY_SECONDS: 0 by default, fractions allowed, nonsense refused', () => {
    expect(readEnv({}).shutdownDelayMs).toBe(0);
    expect(readEnv({ SHUTDOWN_DELAY_SECONDS: '2.5' }).shutdownDelayMs).toBe(2500);
    for (const value of ['-1', 'soon', '3601'])
      expect(() => readEnv({ SHUTDOWN_DELAY_SECONDS: value })).toThrow(/SHUTDOWN_DELAY_SECONDS must be a number of seconds/);
  });
});
