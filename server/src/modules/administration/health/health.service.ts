import { ServerNotReadyError } from '@gatehouse/protocol/errors';
import type { DbHandle } from '../../../db/handle.ts';
import { listAppliedMigrationsAcrossProjects } from './health.repository.ts';

/**
 * What the operations probes answer. Liveness is the process serving HTTP; readiness is the database
 * answering with every migration this build knows applied, and the instance not draining (SIGTERM).
 */
export class HealthService {
  private expected: readonly string[] = [];
  private draining = false;

  constructor(private readonly db: DbHandle) {}

  /** The migrations this build runs (the wiring gives them once, see services.ts). */
  expectMigrations(names: readonly string[]): void {
    this.expected = [...names];
  }

  /** From now on `/ready` answers 503: the load balancer stops sending new requests while in-flight ones finish. */
  startDraining(): void {
    this.draining = true;
  }

  /** Throws SERVER_NOT_READY naming the reason when the instance should not get traffic. */
  async checkReadiness(): Promise<void> {
    if (this.draining) throw new ServerNotReadyError('The server is shutting down.');
    let applied: string[];
    try {
      applied = await listAppliedMigrationsAcrossProjects(this.db);
    } catch {
      throw new ServerNotReadyError('The database does not answer.');
    }
    const done = new Set(applied);
    const pending = this.expected.filter((name) => !done.has(name));
    if (pending.length > 0) throw new ServerNotReadyError(`Migrations are not applied yet: ${pending.join(', ')}.`);
  }
}
