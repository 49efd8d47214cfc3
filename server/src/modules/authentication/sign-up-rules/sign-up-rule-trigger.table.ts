import type { Generated } from 'kysely';
import type { ProjectIdColumn } from '../../../tenancy/project.table.ts';

/** One matched sign-up rule at one sign-up (the statistics count these rows). */
export interface SignUpRuleTriggerTable {
  id: Generated<string>;
  project_id: ProjectIdColumn;
  rule_id: string;
  action: 'allow' | 'reject' | 'restrict' | 'log';
  /** The user created; null for a rejected sign-up. */
  user_id: string | null;
  created_at: Generated<Date>;
}

declare module '../../../db/schema.ts' {
  interface Database {
    sign_up_rule_trigger: SignUpRuleTriggerTable;
  }
}
