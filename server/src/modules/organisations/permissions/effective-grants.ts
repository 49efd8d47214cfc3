const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Set unions kept per closure: a project has few distinct combinations of grants. */
const maxRememberedUnions = 1000;

/**
 * One scope's permission graph at one version: what each permission implies (itself included), and
 * the sorted union for a set of grants, remembered, since most members hold the same few sets.
 */
export class ScopeClosure {
  private readonly unions = new Map<string, readonly string[]>();

  constructor(private readonly implied: Readonly<Record<string, readonly string[]>>) {}

  /** Everything `grantIds` imply, distinct, by code point (a C-collated database's order). A grant with no definition (a system permission) stands for itself. */
  effective(grantIds: readonly string[]): readonly string[] {
    const key = [...grantIds].sort(byCodePoint).join('\n');
    let union = this.unions.get(key);
    if (!union) {
      const ids = new Set<string>();
      for (const grantId of grantIds) for (const id of this.implied[grantId] ?? [grantId]) ids.add(id);
      union = [...ids].sort(byCodePoint);
      if (this.unions.size >= maxRememberedUnions) this.unions.clear();
      this.unions.set(key, union);
    }
    return union;
  }
}

/**
 * The effective permissions of each member from their direct grants: members ordered by `memberKey`
 * (uuids by their text), only `permissionId` when given.
 */
export function effectiveGrants<Member>(
  grants: ReadonlyArray<{ member: Member; permissionId: string }>,
  memberKey: (member: Member) => string,
  closure: ScopeClosure,
  permissionId?: string,
): Array<{ member: Member; ids: readonly string[] }> {
  const members = new Map<string, { member: Member; grantIds: string[] }>();
  for (const { member, permissionId: grantId } of grants) {
    const key = memberKey(member);
    const entry = members.get(key);
    if (entry) entry.grantIds.push(grantId);
    else members.set(key, { member, grantIds: [grantId] });
  }
  const result: Array<{ member: Member; ids: readonly string[] }> = [];
  for (const key of [...members.keys()].sort(byCodePoint)) {
    const { member, grantIds } = members.get(key) as { member: Member; grantIds: string[] };
    const ids = closure.effective(grantIds);
    if (permissionId === undefined) result.push({ member, ids });
    else if (ids.includes(permissionId)) result.push({ member, ids: [permissionId] });
  }
  return result;
}
