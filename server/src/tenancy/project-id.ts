declare const tenant: unique symbol;

/**
 * A project's id as read from the project itself (its row, a loaded `Project`): the tenant every
 * repository call is scoped to. A plain string is not one, so a query cannot be written for "some
 * id" or without its project: `projects.find` is where a requested id becomes a `ProjectId`.
 */
export type ProjectId = string & { readonly [tenant]: 'ProjectId' };

/** The project that administers the others (its users are the dashboard's). */
export const internalProjectId = 'internal' as ProjectId;
