import { describe, expect, it } from 'vitest';
import { effectiveGrants, ScopeClosure } from './effective-grants.ts';

describe('effectiveGrants', () => {
  const closure = new ScopeClosure({ a: ['a', 'b'], b: ['b'], c: ['c', 'a', 'b'], z: ['z'] });
  const grant = (team: string, user: string, permissionId: string) => ({ member: { team, user }, permissionId });
  const key = (member: { team: string; user: string }) => `${member.team} ${member.user}`;

  it('unites the closures of each member: members in order, ids distinct and by code point', () => {
    const grants = [grant('t2', 'u1', 'b'), grant('t1', 'u2', 'z'), grant('t2', 'u1', 'c'), grant('t1', 'u2', '$read_members')];
    expect(effectiveGrants(grants, key, closure)).toEqual([
      { member: { team: 't1', user: 'u2' }, ids: ['$read_members', 'z'] },
      { member: { team: 't2', user: 'u1' }, ids: ['a', 'b', 'c'] },
    ]);
  });

  it('keeps only the asked permission, for the members that hold it', () => {
    const grants = [grant('t1', 'u1', 'a'), grant('t1', 'u1', 'b'), grant('t1', 'u2', 'z')];
    expect(effectiveGrants(grants, key, closure, 'b')).toEqual([{ member: { team: 't1', user: 'u1' }, ids: ['b'] }]);
    expect(effectiveGrants([], key, closure)).toEqual([]);
  });

  it('answers the same set of grants in any order with the same remembered union', () => {
    expect(closure.effective(['c', 'z'])).toBe(closure.effective(['z', 'c']));
    expect(closure.effective(['z', 'c'])).toEqual(['a', 'b', 'c', 'z']);
  });
});
