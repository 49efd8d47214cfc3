import { type Kysely, sql } from 'kysely';

/**
 * Anonymous sign-up is now off by default for a new project. Projects that exist already were
 * created while it was on: they keep it on (an override entry), unless their override says otherwise.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    update project
    set config_override = config_override || '{"auth.allowAnonymousSignUp": true}'::jsonb
    where not (config_override ? 'auth.allowAnonymousSignUp')
      and not coalesce(jsonb_typeof(config_override -> 'auth') = 'object' and (config_override -> 'auth') ? 'allowAnonymousSignUp', false)
  `.execute(db);
}

/** Nothing to undo: the entry only says what the old default said. */
export async function down(): Promise<void> {}
