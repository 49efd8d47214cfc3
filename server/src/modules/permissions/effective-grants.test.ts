import { describe, expect, it } from 'vitest';
import { effectiveGrants } from './effective-grants.ts';

describe('effectiveGrants', () => {
  const grant = (team: string, user: string, ids: string[]) => ({ member: { team, user }, ids });
  const key = (member: { team: string; user: string }) => `${member.team} ${member.user}`;

  it('unites the closures of each member: members in order, ids distinct and by code point', () => {
    const rows = [grant('t2', 'u1', ['b', 'a']), grant('t1', 'u2', ['z', '$read_members']), grant('t2', 'u1', ['a', 'c', 'b'])];
    expect(effectiveGrants(rows, key)).toEqual([
      { member: { team: 't1', user: 'u2' }, ids: ['$read_members', 'z'] },
      { member: { team: 't2', user: 'u1' }, ids: ['a', 'b', 'c'] },
    ]);
  });

  it('keeps only the asked permission, for the members that hold it', () => {
    const rows = [grant('t1', 'u1', ['a', 'b']), grant('t1', 'u1', ['b']), grant('t1', 'u2', ['a'])];
    expect(effectiveGrants(rows, key, 'b')).toEqual([{ member: { team: 't1', user: 'u1' }, ids: ['b'] }]);
    expect(effectiveGrants([], key)).toEqual([]);
  });
});
