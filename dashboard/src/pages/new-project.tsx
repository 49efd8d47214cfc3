import { api, type ProjectCreate, useCreateTeam, useGatehouse, useTeams, useUser } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { adminRequest } from '../admin-client.ts';
import { appKeySetBody, handOverNewKeys } from '../new-keys.ts';
import { paths } from '../routes.ts';
import { type Translate, useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { Checkbox, ErrorMessage, PageHeader, Section, TextField } from '../ui.tsx';

type SignInMethod = NonNullable<ProjectCreate['onboarding_state']>['selected_sign_in_methods'][number];

/** The OAuth providers keep their own names in every language. */
const signInMethods = (t: Translate): Array<[SignInMethod, string]> => [
  ['credential', t('newProject.methodCredential')],
  ['magicLink', t('newProject.methodMagicLink')],
  ['passkey', t('newProject.methodPasskey')],
  ['google', 'Google'],
  ['github', 'GitHub'],
  ['microsoft', 'Microsoft'],
];

/** The built-in email theme (the only one a new project has). */
const defaultEmailThemeId = '1df07ae6-abf3-4a40-83a5-a1a2cbe336ac';
const NEW_TEAM = '__new__';

/** The project's config from the onboarding choices: the chosen sign-in methods, OAuth ones with the shared keys. */
export function configOf(methods: SignInMethod[]): NonNullable<ProjectCreate['config']> {
  const oauth = methods.filter((method): method is 'google' | 'github' | 'microsoft' => ['google', 'github', 'microsoft'].includes(method));
  return {
    // A new project starts in development: callbacks to localhost are fine until production mode.
    allow_localhost: true,
    credential_enabled: methods.includes('credential'),
    magic_link_enabled: methods.includes('magicLink'),
    passkey_enabled: methods.includes('passkey'),
    oauth_providers: oauth.map((id) => ({ id, type: 'shared', enabled: true })),
  };
}

/**
 * Creates a project owned by one of the owner's teams (or a new team), with the onboarding choices applied,
 * and a key set for the app; then shows "Connect your app". A name is all it needs: the owner team is the
 * owner's first team, or a new one already named after them.
 */
export function NewProjectPage() {
  const gatehouse = useGatehouse();
  const queryClient = useQueryClient();
  const user = useUser({ or: 'redirect' });
  const { t } = useDashboardTranslation();
  const teams = useTeams();
  const createTeam = useCreateTeam();
  const createProject = api.useCreateInternalProject();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [teamId, setTeamId] = useState(teams[0]?.id ?? NEW_TEAM);
  const [teamName, setTeamName] = useState(() => t('newProject.defaultTeamName', { owner: user.display_name ?? user.primary_email ?? '' }));
  const [methods, setMethods] = useState<SignInMethod[]>(['credential']);
  const [emailTheme, setEmailTheme] = useState(defaultEmailThemeId);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const toggle = (method: SignInMethod, on: boolean) =>
    setMethods((current) => (on ? [...current, method] : current.filter((candidate) => candidate !== method)));

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (!name.trim()) return setError(new Error(t('newProject.nameMissing')));
    if (teamId === NEW_TEAM && !teamName.trim()) return setError(new Error(t('newProject.teamMissing')));
    setBusy(true);
    try {
      const ownerTeamId =
        teamId === NEW_TEAM
          ? (await createTeam.mutateAsync({ data: { display_name: teamName.trim(), creator_user_id: 'me' } })).id
          : teamId;
      const project = await createProject.mutateAsync({
        data: {
          display_name: name.trim(),
          description: description.trim(),
          owner_team_id: ownerTeamId,
          config: configOf(methods),
          onboarding_status: 'completed',
          onboarding_state: {
            selected_config_choice: 'create-new',
            selected_apps: [],
            selected_sign_in_methods: methods,
            selected_email_theme_id: emailTheme,
            selected_payments_country: 'OTHER',
          },
        },
      });
      // The app's keys, shown once on the page it lands on; without them (a refused call) that page makes them on request.
      await api.createInternalApiKey(appKeySetBody('Created with the project'), adminRequest(project.id)).then(
        (keySet) => handOverNewKeys(project.id, keySet),
        () => undefined,
      );
      await queryClient.invalidateQueries({ queryKey: api.getListInternalProjectsQueryKey() });
      gatehouse.navigate(paths.project(project.id, 'connect'));
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <PageHeader title={t('newProject.title')} />
      <form className="dash-form" onSubmit={submit} noValidate>
        <Section title={t('shell.project')}>
          <TextField label={t('newProject.name')} name="name" value={name} onChange={(event) => setName(event.target.value)} required />
          <TextField
            label={t('newProject.description')}
            name="description"
            value={description}
            onChange={(event) => setDescription(event.target.value)}
          />
          <div className="dash-field">
            <label htmlFor="owner-team">{t('newProject.ownerTeam')}</label>
            <select id="owner-team" value={teamId} onChange={(event) => setTeamId(event.target.value)}>
              {teams.map((team) => (
                <option key={team.id} value={team.id}>
                  {team.display_name}
                </option>
              ))}
              <option value={NEW_TEAM}>{t('newProject.newTeamOption')}</option>
            </select>
          </div>
          {teamId === NEW_TEAM ? (
            <TextField
              label={t('newProject.newTeamName')}
              name="team"
              value={teamName}
              onChange={(event) => setTeamName(event.target.value)}
            />
          ) : null}
        </Section>
        <Section title={t('newProject.methods')} description={t('newProject.methodsHint')}>
          <fieldset className="dash-fieldset">
            <legend className="dash-visually-hidden">{t('newProject.methods')}</legend>
            {signInMethods(t).map(([method, label]) => (
              <Checkbox key={method} label={label} checked={methods.includes(method)} onChange={(on) => toggle(method, on)} />
            ))}
          </fieldset>
        </Section>
        <Section title={t('newProject.emailTheme')}>
          <div className="dash-field">
            <label htmlFor="email-theme">{t('newProject.emailThemeLabel')}</label>
            <select id="email-theme" value={emailTheme} onChange={(event) => setEmailTheme(event.target.value)}>
              <option value={defaultEmailThemeId}>{t('newProject.emailThemeDefault')}</option>
            </select>
          </div>
        </Section>
        <ErrorMessage error={error} />
        <div className="dash-row">
          <button type="submit" className="gh-primary" disabled={busy}>
            {busy ? t('newProject.creating') : t('projects.create')}
          </button>
        </div>
      </form>
    </>
  );
}
