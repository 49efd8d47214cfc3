import type { ProjectId } from '../../../tenancy/project-id.ts';
import { TtlCache } from '../../../lib/ttl-cache.ts';
import type { ClosureSnapshot, Scope } from './permission.repository.ts';
import { ScopeClosure } from './effective-grants.ts';

/**
 * Each project scope's permission closure, kept in memory under the graph version it was read at
 * (migration 0018). A listing reads the current version with its grants and asks for that version:
 * a changed graph is noticed by every instance on its next listing, with no invalidation message.
 */
export class PermissionClosureCache {
  private readonly closures = new TtlCache<string, { version: bigint; closure: ScopeClosure }>(10 * 60_000, 1000);

  constructor(private readonly load: (projectId: ProjectId, scope: Scope) => Promise<ClosureSnapshot>) {}

  async at(projectId: ProjectId, scope: Scope, version: string): Promise<ScopeClosure> {
    const key = `${projectId}\u0000${scope}`;
    const cached = this.closures.get(key);
    if (cached && cached.version >= BigInt(version)) return cached.closure;
    const snapshot = await this.load(projectId, scope);
    const loaded = { version: BigInt(snapshot.version), closure: new ScopeClosure(snapshot.implied) };
    // A slower load of an older version must not replace a newer one.
    const current = this.closures.get(key);
    if (!current || current.version < loaded.version) this.closures.set(key, loaded);
    return loaded.closure;
  }
}
