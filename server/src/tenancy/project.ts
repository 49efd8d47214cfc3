import type { ProjectConfig } from './project-config.ts';
import type { ProjectRow } from './project.table.ts';
import { isUuid } from '../lib/uuid.ts';

/** A project as every request sees it: its row and its rendered config. */
export type Project = ProjectRow & { config: ProjectConfig };

/** Project ids are UUIDs, or `internal` (the Stack SDKs refuse anything else). */
export const isProjectId = (id: string): boolean => id === 'internal' || isUuid(id);
