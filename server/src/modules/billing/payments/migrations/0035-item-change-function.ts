import { type Kysely, sql } from 'kysely';

/**
 * Item quantity changes in one round trip (issue #15), and a running total of the entries that never
 * expire so that reading a quantity no longer sums a customer's whole ledger.
 *
 * `payment_item_total` keeps, per customer item, the sum of the ledger entries without `expires_at`;
 * a quantity's manual part is that total plus the unexpired entries that do expire (a partial index
 * holds only those). `payment_item_change_apply` is the one writer of the ledger: it takes the
 * customer item's advisory lock, and for a checked change (a decrease without `allow_negative`)
 * reads the quantity and refuses a change that would leave it below zero; then it inserts the entry,
 * moves the total, and appends the `item_quantity.changed` event (the events module's table; the
 * payload comes from the service as the spec types it). Lock first, then read: in a VOLATILE plpgsql
 * function under READ COMMITTED each statement takes a new snapshot, so the reads after the lock see
 * every change committed by the writer that held it before (one SQL statement with the lock in a CTE
 * would not: its snapshot predates the lock).
 *
 * The products a customer owns decide what its items are granted (by rules the service applies to
 * the catalogue), so the caller passes the granted quantity it computed and a stamp of the product
 * rows it computed it from; when the rows changed since (a grant, a cancel, a refund), the function
 * changes nothing and answers `stale` with the current rows and their stamp, and the caller computes
 * again. The queries are written out in the function's body rather than in SQL helper functions: those
 * have subqueries, so Postgres would not inline them and would plan them again at every call (plpgsql
 * keeps the plans of its statements for the session).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('payment_item_total')
    .addColumn('project_id', 'text', (column) => column.notNull().references('project.id').onDelete('cascade'))
    .addColumn('customer_type', 'text', (column) => column.notNull())
    .addColumn('customer_id', 'text', (column) => column.notNull())
    .addColumn('item_id', 'text', (column) => column.notNull())
    .addColumn('total', 'bigint', (column) => column.notNull())
    .addPrimaryKeyConstraint('payment_item_total_pkey', ['project_id', 'customer_type', 'customer_id', 'item_id'])
    .execute();
  await sql`
    insert into payment_item_total (project_id, customer_type, customer_id, item_id, total)
    select project_id, customer_type, customer_id, item_id, sum(delta)
    from payment_item_change where expires_at is null
    group by project_id, customer_type, customer_id, item_id`.execute(db);
  await sql`
    create index payment_item_change_expiring_idx
    on payment_item_change (project_id, customer_type, customer_id, item_id, expires_at)
    where expires_at is not null`.execute(db);

  await sql`
    create function payment_item_change_apply(
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
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function payment_item_change_apply(text, uuid, text, text, text, text, bigint, timestamptz, text, timestamptz, boolean, bigint, text, jsonb)`.execute(
    db,
  );
  await sql`drop index payment_item_change_expiring_idx`.execute(db);
  await db.schema.dropTable('payment_item_total').execute();
}
