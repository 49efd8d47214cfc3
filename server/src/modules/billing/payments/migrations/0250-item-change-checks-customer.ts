import { type Kysely, sql } from 'kysely';

/**
 * Issue #38: an item change checked that its customer exists with a statement of its own before
 * calling `payment_item_change_apply`, two round trips per change. The function now checks it
 * first (a user or team of the project; a custom customer always exists) and answers the outcome
 * `no_customer`, changing nothing; otherwise it is 0076's body unchanged, with the same signature.
 * Customer ids reach it only once the service has checked they are uuids.
 */
const bound = '1000000000000000';

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
      v_total numeric;
      v_manual numeric;
      v_prior bigint;
    begin
      -- The customer must exist (a user or team of the project; a custom customer always does).
      if (p_customer_type = 'user' and not exists (select 1 from project_user u where u.project_id = p_project_id and u.id = p_customer_id::uuid))
        or (p_customer_type = 'team' and not exists (select 1 from team t where t.project_id = p_project_id and t.id = p_customer_id::uuid)) then
        return query select 'no_customer'::text, null::bigint, null::text, null::jsonb;
        return;
      end if;
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
      end if;
      select coalesce((select t.total from payment_item_total t
            where t.project_id = p_project_id and t.customer_type = p_customer_type and t.customer_id = p_customer_id
              and t.item_id = p_item_id), 0)::numeric
        into v_total;
      select v_total + coalesce((select sum(c.delta) from payment_item_change c
            where c.project_id = p_project_id and c.customer_type = p_customer_type and c.customer_id = p_customer_id
              and c.item_id = p_item_id and c.expires_at is not null and c.expires_at > p_now), 0)
        into v_manual;
      v_prior := least(greatest(v_manual + p_granted, -9223372036854775808), 9223372036854775807)::bigint;
      if abs(v_manual + p_delta) > ${sql.raw(bound)} or (p_expires_at is null and abs(v_total + p_delta) > ${sql.raw(bound)}) then
        return query select 'out_of_range'::text, v_prior, v_stamp, null::jsonb;
        return;
      end if;
      if p_check and v_manual + p_granted + p_delta < 0 then
        return query select 'insufficient'::text, v_prior, v_stamp, null::jsonb;
        return;
      end if;
      insert into payment_item_change (id, project_id, customer_type, customer_id, item_id, delta, expires_at, description, created_at)
      values (p_id, p_project_id, p_customer_type, p_customer_id, p_item_id, p_delta, p_expires_at, p_description, p_now);
      if p_expires_at is null then
        insert into payment_item_total as t (project_id, customer_type, customer_id, item_id, total)
        values (p_project_id, p_customer_type, p_customer_id, p_item_id, p_delta)
        on conflict (project_id, customer_type, customer_id, item_id) do update set total = t.total + excluded.total;
      end if;
      insert into event (project_id, type, data) values (p_project_id, 'item_quantity.changed', p_event);
      return query select 'changed'::text, case when p_check then v_prior end, v_stamp, null::jsonb;
    end $$`.execute(db);
}

/** Back to 0076's body (no customer check). */
export async function down(db: Kysely<unknown>): Promise<void> {
  const previous = await import('./0076-item-quantity-bound.ts');
  await previous.up(db);
}
