import { describe, expect, it } from 'vitest';
import { deriveFloor } from './derived-floors.ts';

describe('a floor derived from the statements our handler sent', () => {
  it('replays one read as it is, with its values', () => {
    expect(deriveFloor([{ text: 'select * from "project" where "id" = $1;', values: ['p1'] }])).toEqual({
      statement: 'select * from "project" where "id" = $1',
      values: ['p1'],
      counts: { reads: 1, writes: 0, control: 0 },
    });
  });

  it('folds several reads into one statement, placeholders renumbered and values concatenated', () => {
    const floor = deriveFloor([
      { text: 'select * from project_user where project_id = $1 and id = $2', values: ['p1', 'u1'] },
      { text: 'with t as (select $1::text as x) select * from t where x = $2', values: ['a', 'b'] },
    ]);
    expect(floor.statement).toBe(
      "select (select coalesce(json_agg(r), '[]'::json) from (select * from project_user where project_id = $1 and id = $2) as r) as r1, " +
        "(select coalesce(json_agg(r), '[]'::json) from (with t as (select $3::text as x) select * from t where x = $4) as r) as r2",
    );
    expect(floor.values).toEqual(['p1', 'u1', 'a', 'b']);
  });

  it('counts writes, locks and transaction control without replaying them', () => {
    const floor = deriveFloor([
      { text: 'begin', values: [] },
      { text: 'select pg_advisory_xact_lock(hashtextextended($1, 0))', values: ['k'] },
      { text: 'select * from team where id = $1 for update', values: ['t1'] },
      { text: 'update "refresh_session" set "last_used_at" = $1 where "id" = $2', values: [1, 2] },
      { text: 'with moved as (insert into x select 1 returning *) select * from moved', values: [] },
      { text: 'select * from team where id = $1', values: ['t1'] },
      { text: 'commit', values: [] },
    ]);
    expect(floor).toEqual({
      statement: 'select * from team where id = $1',
      values: ['t1'],
      counts: { reads: 1, writes: 4, control: 2 },
    });
  });

  it('is the authentication alone when the handler read nothing', () => {
    expect(deriveFloor([])).toEqual({ values: [], counts: { reads: 0, writes: 0, control: 0 } });
  });
});
