import { type Kysely, sql } from 'kysely';

/**
 * Rollups of the project metrics, kept by triggers on project_user so the metrics read a few dozen
 * counter rows instead of aggregating every user (a count over 100 000 users costs ~30 ms here):
 * - `user_metrics_total`: users per sign-up method and country ('' stands for none);
 * - `user_metrics_daily`: per UTC day, the users who signed up that day, and those last active that
 *   day (as the metrics define activity: a user counts once, on the day of their latest activity).
 * Inserts and deletes are counted per statement from their transition tables (a bulk import is one
 * aggregate); an update only when it moves a counted attribute: last activity within the same day,
 * the frequent case, fires nothing. Upserts go in key order, so concurrent writers lock alike.
 * Each counter is split over 16 shards picked by the writing connection: concurrent sign-ups would
 * otherwise queue on one row per project and day, each holding it until its transaction commits.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table user_metrics_total (
      project_id text not null references project (id) on delete cascade,
      is_anonymous boolean not null,
      sign_up_method text not null,
      country_code text not null,
      shard smallint not null,
      users integer not null,
      primary key (project_id, is_anonymous, sign_up_method, country_code, shard)
    )`.execute(db);
  await sql`
    create table user_metrics_daily (
      project_id text not null references project (id) on delete cascade,
      day date not null,
      is_anonymous boolean not null,
      sign_ups integer not null,
      shard smallint not null,
      last_active integer not null,
      primary key (project_id, day, is_anonymous, shard)
    )`.execute(db);
  await sql`create function utc_day(at timestamptz) returns date language sql immutable as $$ select (at at time zone 'utc')::date $$`.execute(
    db,
  );
  // Counts each user given (column arrays, one element per user) with its sign (1 counted, -1
  // uncounted), netting what cancels out; projects being deleted are skipped (their counters go
  // with them by cascade).
  await sql`
    create function user_metrics_count(project_ids text[], anonymous boolean[], methods text[], countries text[],
      signed_up timestamptz[], last_active timestamptz[], signs integer[]) returns void language sql as $$
      with u as (
        select * from unnest(project_ids, anonymous, methods, countries, signed_up, last_active, signs)
          as r(project_id, is_anonymous, sign_up_method, country_code, signed_up_at, last_active_at, sign)
        where exists (select 1 from project p where p.id = r.project_id)
      ), totals as (
        insert into user_metrics_total as t (project_id, is_anonymous, sign_up_method, country_code, shard, users)
        select project_id, is_anonymous, coalesce(sign_up_method, ''), coalesce(country_code, ''), pg_backend_pid() % 16, sum(sign)
        from u group by 1, 2, 3, 4 having sum(sign) <> 0 order by 1, 2, 3, 4
        on conflict (project_id, is_anonymous, sign_up_method, country_code, shard) do update set users = t.users + excluded.users
      )
      insert into user_metrics_daily as d (project_id, day, is_anonymous, shard, sign_ups, last_active)
      select project_id, day, is_anonymous, pg_backend_pid() % 16, sum(sign_ups), sum(active) from (
        select project_id, utc_day(signed_up_at) as day, is_anonymous, sign as sign_ups, 0 as active from u
        union all
        select project_id, utc_day(last_active_at), is_anonymous, 0, sign from u
      ) days group by 1, 2, 3 having sum(sign_ups) <> 0 or sum(active) <> 0 order by 1, 2, 3
      on conflict (project_id, day, is_anonymous, shard)
        do update set sign_ups = d.sign_ups + excluded.sign_ups, last_active = d.last_active + excluded.last_active
    $$`.execute(db);
  const counted = (rows: string, sign: number) =>
    sql.raw(`perform user_metrics_count(array_agg(project_id), array_agg(is_anonymous), array_agg(sign_up_method),
        array_agg(country_code), array_agg(signed_up_at), array_agg(last_active_at), array_fill(${sign}, array[count(*)::int]))
      from ${rows};`);
  await sql`
    create function user_metrics_on_insert() returns trigger language plpgsql as $$
    begin
      ${counted('new_users', 1)}
      return null;
    end $$`.execute(db);
  await sql`
    create function user_metrics_on_delete() returns trigger language plpgsql as $$
    begin
      ${counted('old_users', -1)}
      return null;
    end $$`.execute(db);
  await sql`
    create function user_metrics_on_update() returns trigger language plpgsql as $$
    begin
      perform user_metrics_count(array[old.project_id, new.project_id], array[old.is_anonymous, new.is_anonymous],
        array[old.sign_up_method, new.sign_up_method], array[old.country_code, new.country_code],
        array[old.signed_up_at, new.signed_up_at], array[old.last_active_at, new.last_active_at], array[-1, 1]);
      return null;
    end $$`.execute(db);
  await sql`
    create trigger user_metrics_on_insert after insert on project_user
    referencing new table as new_users for each statement execute function user_metrics_on_insert()`.execute(db);
  await sql`
    create trigger user_metrics_on_delete after delete on project_user
    referencing old table as old_users for each statement execute function user_metrics_on_delete()`.execute(db);
  await sql`
    create trigger user_metrics_on_update after update on project_user for each row
    when (old.project_id is distinct from new.project_id or old.is_anonymous is distinct from new.is_anonymous
      or old.sign_up_method is distinct from new.sign_up_method or old.country_code is distinct from new.country_code
      or utc_day(old.signed_up_at) <> utc_day(new.signed_up_at) or utc_day(old.last_active_at) <> utc_day(new.last_active_at))
    execute function user_metrics_on_update()`.execute(db);
  await sql`
    select user_metrics_count(array_agg(project_id), array_agg(is_anonymous), array_agg(sign_up_method), array_agg(country_code),
      array_agg(signed_up_at), array_agg(last_active_at), array_fill(1, array[count(*)::int]))
    from project_user`.execute(db);
  // The metrics no longer aggregate these columns over all users (migration 0009).
  await sql`drop index project_user_country_idx`.execute(db);
  await sql`drop index project_user_sign_up_method_idx`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`create index project_user_country_idx on project_user (project_id, country_code) include (is_anonymous)`.execute(db);
  await sql`create index project_user_sign_up_method_idx on project_user (project_id, sign_up_method) include (is_anonymous)`.execute(db);
  await sql`drop trigger user_metrics_on_insert on project_user`.execute(db);
  await sql`drop trigger user_metrics_on_delete on project_user`.execute(db);
  await sql`drop trigger user_metrics_on_update on project_user`.execute(db);
  for (const fn of [
    'user_metrics_on_insert()',
    'user_metrics_on_delete()',
    'user_metrics_on_update()',
    'user_metrics_count(text[], boolean[], text[], text[], timestamptz[], timestamptz[], integer[])',
  ]) {
    await sql.raw(`drop function ${fn}`).execute(db);
  }
  await sql`drop function utc_day(timestamptz)`.execute(db);
  await sql`drop table user_metrics_daily`.execute(db);
  await sql`drop table user_metrics_total`.execute(db);
}
