import { PlainHttpError } from '../../../lib/plain-http-error.ts';
import type { Project } from '../../../tenancy/project.ts';

/** A theme id, `false` for no theme, `null`/absent for the project's selected theme. */
export type ThemeChoice = string | false | null | undefined;

export type EmailTemplateView = { id: string; display_name: string; tsx_source: string; theme_id?: string | false };

/** What email content reads of a project: its config (themes, templates, email server) and its name. */
export type ProjectLike = Pick<Project, 'id' | 'display_name' | 'config' | 'config_override'>;

export const notFound = (what: string, id: string) => new PlainHttpError(404, `${what} ${id} does not exist.`);
