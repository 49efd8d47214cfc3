import { api, Link } from '@gatehouse/react';
import { paths } from '../routes.ts';
import { useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { PageHeader } from '../ui.tsx';

/** The projects of the owner's teams, oldest first, each opening its pages. */
export function ProjectsPage() {
  const { data } = api.useListInternalProjectsSuspense();
  const { t, formatDate } = useDashboardTranslation();
  return (
    <>
      <PageHeader title={t('projects.title')}>
        <Link className="dash-button dash-primary" href={paths.newProject()}>
          {t('projects.create')}
        </Link>
      </PageHeader>
      {data.items.length === 0 ? (
        <div className="dash-panel">
          <p>{t('projects.none')}</p>
        </div>
      ) : (
        <>
          <p className="dash-muted">{t('projects.count', { count: data.items.length })}</p>
          <ul className="dash-cards" aria-label={t('projects.listLabel')}>
            {data.items.map((project) => (
              <li key={project.id} className="dash-card">
                <Link href={paths.project(project.id)} className="dash-card-title">
                  {project.display_name}
                </Link>
                <p className="dash-muted">{project.description || t('projects.noDescription')}</p>
                <p className="dash-muted">
                  <code>{project.id}</code>
                </p>
                <p className="dash-muted">
                  {t('projects.created', { when: formatDate(project.created_at_millis) })} ·{' '}
                  {project.is_production_mode ? t('projects.productionMode') : t('projects.developmentMode')}
                </p>
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}
