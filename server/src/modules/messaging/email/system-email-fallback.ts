import type { Language } from '../../../tenancy/project-language.ts';
import {
  builtInSystemTemplateSource,
  builtInTemplates,
  builtInThemes,
  lightThemeId,
  type SystemEmailKind,
  systemTemplateIds,
} from './built-in-emails.ts';
import type { ProjectLike } from './email-content.types.ts';

/** A system email's subject when its template names none. */
export function builtInSubject(kind: SystemEmailKind, project: Pick<ProjectLike, 'display_name'>): string {
  return `${builtInTemplates[systemTemplateIds[kind]]!.displayName} (${project.display_name})`;
}

/**
 * What a system email falls back to when the project's template (or theme) does not render: the
 * built-in template in the recipient's language inside the built-in light theme (trusted sources).
 */
export function systemEmailFallback(kind: SystemEmailKind, language: Language, project: Pick<ProjectLike, 'display_name'>) {
  return {
    templateSource: builtInSystemTemplateSource(kind, language),
    themeSource: builtInThemes[lightThemeId]!.tsxSource,
    fallbackSubject: builtInSubject(kind, project),
  };
}
