import { Link, useGatehouse, useTeams, useUser } from '@gatehouse/react';

export function Home() {
  const { urls } = useGatehouse();
  const user = useUser();
  const teams = useTeams();
  if (!user) {
    return (
      <section className="hero">
        <h1>Welcome to the demo app</h1>
        <p>This app uses Gatehouse for sign-in, accounts and teams.</p>
        <p className="actions">
          <Link href={urls.signUp}>Create an account</Link> <Link href={urls.signIn}>Sign in</Link>
        </p>
      </section>
    );
  }
  const selected = teams.find((team) => team.id === user.selected_team_id);
  return (
    <section className="hero">
      <h1 data-testid="greeting">Hello, {user.display_name ?? user.primary_email}</h1>
      <p data-testid="selected-team">{selected ? `Current team: ${selected.display_name}` : 'No team selected'}</p>
      <p className="actions">
        <Link href={urls.accountSettings}>Account settings</Link> <Link href={urls.signOut}>Sign out</Link>
      </p>
    </section>
  );
}
