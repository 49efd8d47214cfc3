/** One grant's member with everything the grant implies (its closure, or itself). */
export type ImpliedRow<Member> = { member: Member; ids: string[] };

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The effective permissions of each member: the union of their grants' closures, members ordered by
 * `memberKey` (uuids by their text), each member's ids by code point (a C-collated database's order),
 * only `permissionId` when given. Done here rather than in SQL: unnesting and sorting tens of ids per
 * grant costs Postgres more than the rest of the request.
 */
export function effectiveGrants<Member>(
  rows: Array<ImpliedRow<Member>>,
  memberKey: (member: Member) => string,
  permissionId?: string,
): Array<ImpliedRow<Member>> {
  const members = new Map<string, { member: Member; ids: Set<string> }>();
  for (const { member, ids } of rows) {
    const key = memberKey(member);
    let entry = members.get(key);
    if (!entry) {
      entry = { member, ids: new Set() };
      members.set(key, entry);
    }
    for (const id of ids) entry.ids.add(id);
  }
  const result: Array<ImpliedRow<Member>> = [];
  for (const key of [...members.keys()].sort(byCodePoint)) {
    const { member, ids } = members.get(key) as { member: Member; ids: Set<string> };
    if (permissionId === undefined) result.push({ member, ids: [...ids].sort(byCodePoint) });
    else if (ids.has(permissionId)) result.push({ member, ids: [permissionId] });
  }
  return result;
}
