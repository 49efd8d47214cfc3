import { type FormEvent, useState } from 'react';
import { useCreateTeam } from '../hooks/use-create-team.ts';
import { useSelectTeam } from '../hooks/use-select-team.ts';
import { Field, RequestError, SubmitButton } from '../ui/form.tsx';
import { useTranslation } from '../i18n/i18n-context.ts';

/** Creates a team with the user as its first member, then selects it. */
export function CreateTeamForm({ onCreated }: { onCreated?: (teamId: string) => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  const createTeam = useCreateTeam();
  const { selectTeam } = useSelectTeam();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const invalid = name.trim() ? undefined : t('validate.teamNameMissing');
    setError(invalid);
    if (invalid) return;
    const team = await createTeam.mutateAsync({ data: { display_name: name.trim(), creator_user_id: 'me' } });
    await selectTeam(team.id);
    setName('');
    onCreated?.(team.id);
  };

  return (
    <form onSubmit={(event) => void submit(event).catch(() => undefined)} noValidate aria-label={t('team.create')}>
      <Field label={t('team.name')} name="team-name" value={name} onChange={(e) => setName(e.target.value)} error={error} />
      <RequestError error={createTeam.error} />
      <SubmitButton pending={createTeam.isPending}>{t('team.createSubmit')}</SubmitButton>
    </form>
  );
}
