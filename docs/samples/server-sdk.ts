// #region setup
import { createServerApp } from '@gatehouse/client';

// The secret server key (`ssk_…`) stays on your servers: never put it in a browser bundle.
const gatehouse = createServerApp({
  baseUrl: process.env.GATEHOUSE_URL ?? 'http://localhost:8102',
  projectId: process.env.GATEHOUSE_PROJECT_ID!,
  secretServerKey: process.env.GATEHOUSE_SECRET_SERVER_KEY!,
});
// #endregion setup

// #region users
export async function whoIsCalling(accessToken: string) {
  // The user behind an access token a browser sent you (null when the token is not valid).
  const user = await gatehouse.users.getByAccessToken(accessToken);
  if (!user) return null;
  await gatehouse.users.update(user.id, { server_metadata: { lastSeenAt: Date.now() } });
  return user;
}
// #endregion users

// #region teams
export async function createWorkspace(ownerId: string, name: string) {
  const team = await gatehouse.teams.create({ display_name: name, creator_user_id: ownerId });
  const canInvite = await gatehouse.teamPermissions.has(team.id, ownerId, '$invite_members');
  return { team, canInvite };
}
// #endregion teams
