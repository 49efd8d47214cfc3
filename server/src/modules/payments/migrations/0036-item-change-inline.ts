import { type Kysely, sql } from 'kysely';

/**
 * `payment_item_change_apply` (migration 0035) with its queries written out in its body, and its SQL
 * helper functions dropped: a SQL function whose body has subqueries is not inlined, so Postgres
 * planned `payment_item_manual_quantity` and `payment_customer_products_stamp` again at every call
 * (get-item, which read through the first, fell from ~0.6x to ~0.35x floor B); plpgsql keeps the
 * plans of the statements in its body for the session. Same arguments, same answers.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function payment_item_change_apply(
      p_lock_key text, p_id uuid, p_project_id text, p_customer_type text, p_customer_id text, p_item_id text,
      p_delta bigint, p_expires_at timestamptz, p_description text, p_now timestamptz,
      p_check boolean, p_granted bigint, p_products_stamp text, p_event jsonb)
    returns table (outcome text, prior bigint, products_stamp text, products jsonb)
    language plpgsql volatile as $$
    declare
      v_stamp text;
      v_prior bigint;
    begin
      perform pg_advisory_xact_lock(hashtextextended(p_lock_key, 0));
      if p_check then
        select md5(coalesce(string_agg(p.id::text || ':' || p.status || ':' || p.quantity::text || ':' || coalesce(p.ended_at::text, ''),
            ',' order by p.id), ''))
          into v_stamp
          from payment_customer_product p
          where p.project_id = p_project_id and p.customer_type = p_customer_type and p.customer_id = p_customer_id;
        if v_stamp is distinct from p_products_stamp then
          return query select 'stale'::text, null::bigint, v_stamp,
            coalesce((select jsonb_agg(to_jsonb(p) order by p.created_at, p.id) from payment_customer_product p
              where p.project_id = p_project_id and p.customer_type = p_customer_type and p.customer_id = p_customer_id), '[]'::jsonb);
          return;
        end if;
        select coalesce((select t.total from payment_item_total t
              where t.project_id = p_project_id and t.customer_type = p_customer_type and t.customer_id = p_customer_id
                and t.item_id = p_item_id), 0)
            + coalesce((select sum(c.delta) from payment_item_change c
              where c.project_id = p_project_id and c.customer_type = p_customer_type and c.customer_id = p_customer_id
                and c.item_id = p_item_id and c.expires_at is not null and c.expires_at > p_now), 0)
            + p_granted
          into v_prior;
        if v_prior + p_delta < 0 then
          return query select 'insufficient'::text, v_prior, v_stamp, null::jsonb;
          return;
        end if;
      end if;
      insert into payment_item_change (id, project_id, customer_type, customer_id, item_id, delta, expires_at, description, created_at)
      values (p_id, p_project_id, p_customer_type, p_customer_id, p_item_id, p_delta, p_expires_at, p_description, p_now);
      if p_expires_at is null then
        insert into payment_item_total as t (project_id, customer_type, customer_id, item_id, total)
        values (p_project_id, p_customer_type, p_customer_id, p_item_id, p_delta)
        on conflict (project_id, customer_type, customer_id, item_id) do update set total = t.total + excluded.total;
      end if;
      insert into event (project_id, type, data) values (p_project_id, 'item_quantity.changed', p_event);
      return query select 'changed'::text, v_prior, v_stamp, null::jsonb;
    end $$`.execute(db);
  await sql`drop function payment_customer_products_stamp(text, text, text)`.execute(db);
  await sql`drop function payment_item_manual_quantity(text, text, text, text, timestamptz)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function payment_item_manual_quantity(p_project_id text, p_customer_type text, p_customer_id text, p_item_id text, p_now timestamptz)
    returns bigint language sql stable as $$
      select coalesce((select t.total from payment_item_total t
          where t.project_id = p_project_id and t.customer_type = p_customer_type and t.customer_id = p_customer_id
            and t.item_id = p_item_id), 0)
        + coalesce((select sum(c.delta) from payment_item_change c
          where c.project_id = p_project_id and c.customer_type = p_customer_type and c.customer_id = p_customer_id
            and c.item_id = p_item_id and c.expires_at is not null and c.expires_at > p_now), 0)::bigint
    $$`.execute(db);

  await sql`
    create function payment_customer_products_stamp(p_project_id text, p_customer_type text, p_customer_id text)
    returns text language sql stable as $$
      select md5(coalesce(string_agg(p.id::text || ':' || p.status || ':' || p.quantity::text || ':' || coalesce(p.ended_at::text, ''),
        ',' order by p.id), ''))
      from payment_customer_product p
      where p.project_id = p_project_id and p.customer_type = p_customer_type and p.customer_id = p_customer_id
    $$`.execute(db);

  await sql`
    create or replace function payment_item_change_apply(
      p_lock_key text, p_id uuid, p_project_id text, p_customer_type text, p_customer_id text, p_item_id text,
      p_delta bigint, p_expires_at timestamptz, p_description text, p_now timestamptz,
      p_check boolean, p_granted bigint, p_products_stamp text, p_event jsonb)
    returns table (outcome text, prior bigint, products_stamp text, products jsonb)
    language plpgsql volatile as $$
    declare
      v_stamp text;
      v_prior bigint;
    begin
      perform pg_advisory_xact_lock(hashtextextended(p_lock_key, 0));
      if p_check then
        v_stamp := payment_customer_products_stamp(p_project_id, p_customer_type, p_customer_id);
        if v_stamp is distinct from p_products_stamp then
          return query select 'stale'::text, null::bigint, v_stamp,
            coalesce((select jsonb_agg(to_jsonb(p) order by p.created_at, p.id) from payment_customer_product p
              where p.project_id = p_project_id and p.customer_type = p_customer_type and p.customer_id = p_customer_id), '[]'::jsonb);
          return;
        end if;
        v_prior := payment_item_manual_quantity(p_project_id, p_customer_type, p_customer_id, p_item_id, p_now) + p_granted;
        if v_prior + p_delta < 0 then
          return query select 'insufficient'::text, v_prior, v_stamp, null::jsonb;
          return;
        end if;
      end if;
      insert into payment_item_change (id, project_id, customer_type, customer_id, item_id, delta, expires_at, description, created_at)
      values (p_id, p_project_id, p_customer_type, p_customer_id, p_item_id, p_delta, p_expires_at, p_description, p_now);
      if p_expires_at is null then
        insert into payment_item_total as t (project_id, customer_type, customer_id, item_id, total)
        values (p_project_id, p_customer_type, p_customer_id, p_item_id, p_delta)
        on conflict (project_id, customer_type, customer_id, item_id) do update set total = t.total + excluded.total;
      end if;
      insert into event (project_id, type, data) values (p_project_id, 'item_quantity.changed', p_event);
      return query select 'changed'::text, v_prior, v_stamp, null::jsonb;
    end $$`.execute(db);
}
