/** A project's id: the tenant every repository call is scoped to. */
export type ProjectId = string;

/** The project that administers the others (its users are the dashboard's). */
export const internalProjectId = 'internal' as ProjectId;
