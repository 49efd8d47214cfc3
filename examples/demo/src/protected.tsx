import { useUser } from '@gatehouse/react';

/** Only for signed-in users: everybody else is sent to sign in and brought back here. */
export function Protected() {
  const user = useUser({ or: 'redirect' });
  return (
    <section className="hero">
      <h1>Protected page</h1>
      <p>Only signed-in users see this. You are {user.primary_email}.</p>
    </section>
  );
}
