import { api, Link } from '@gatehouse/react';
import { paths } from '../routes.ts';
import { formatDate, PageHeader } from '../ui.tsx';

/** The projects of the owner's teams, oldest first, each opening its pages. */
export function ProjectsPage() {
  const { data } = api.useListInternalProjectsSuspense();
  return (
    <>
      <PageHeader title="Projects">
        <Link className="dash-button dash-primary" href={paths.newProject()}>
          Create project
        </Link>
      </PageHeader>
      {data.items.length === 0 ? (
        <div className="dash-panel">
          <p>You have no projects yet. Create one to get its keys and start adding users.</p>
        </div>
      ) : (
        <ul className="dash-cards" aria-label="Your projects">
          {data.items.map((project) => (
            <li key={project.id} className="dash-card">
              <Link href={paths.project(project.id)} className="dash-card-title">
                {project.display_name}
              </Link>
              <p className="dash-muted">{project.description || 'No description'}</p>
              <p className="dash-muted">
                <code>{project.id}</code>
              </p>
              <p className="dash-muted">
                Created {formatDate(project.created_at_millis)} · {project.is_production_mode ? 'Production mode' : 'Development mode'}
              </p>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
