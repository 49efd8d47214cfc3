import type { ProjectConfig } from './project-config.ts';
import type { ProjectRow } from './project.table.ts';

/** A project as every request sees it: its row and its rendered config. */
export type Project = ProjectRow & { config: ProjectConfig };

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Project ids are UUIDs, or `internal` (the Stack SDKs refuse anything else). */
export const isProjectId = (id: string): boolean => id === 'internal' || uuidPattern.test(id);
