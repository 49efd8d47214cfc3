import type { AppCall } from './app-call.ts';
import type { ClientProject } from './app-types.ts';
import { createBackendCall } from './backend-call.ts';
import { type DataVault, dataVault } from './data-vault.ts';
import { type ServerEmails, serverEmails } from './server-emails.ts';
import { type ServerPayments, serverPayments } from './server-payments.ts';
import {
  type ServerContactChannels,
  type ServerSessions,
  type ServerUsers,
  serverContactChannels,
  serverSessions,
  serverUsers,
} from './server-users.ts';
import {
  type ServerApiKeys,
  type ServerProjectPermissions,
  type ServerTeamPermissions,
  type ServerTeams,
  serverApiKeys,
  serverProjectPermissions,
  serverTeamPermissions,
  serverTeams,
} from './server-teams.ts';
import * as op from '@gatehouse/protocol/operations';

export type ServerAppOptions = {
  /** Where the platform is, e.g. `https://auth.example.com` (the SDK adds `/api/v1`). */
  baseUrl: string;
  projectId: string;
  /** `ssk_…`: keep it on your servers, never in a browser bundle. */
  secretServerKey: string;
  fetch?: typeof fetch;
};

/** What a backend may do with a project (the admin app can do all of it too). */
export type ServerCapabilities = {
  readonly projectId: string;
  users: ServerUsers;
  teams: ServerTeams;
  sessions: ServerSessions;
  contactChannels: ServerContactChannels;
  teamPermissions: ServerTeamPermissions;
  projectPermissions: ServerProjectPermissions;
  apiKeys: ServerApiKeys;
  /** Stores of encrypted values (`dataVault.getStore(id).getValue(key, { secret })`). */
  dataVault: DataVault;
  /** Items (quantities, atomic decreases), products of customers, checkout URLs. */
  payments: ServerPayments;
  /** Queues an email to users (send-email through the outbox); see ServerEmails. */
  sendEmail: ServerEmails['sendEmail'];
  /** Emails a sign-in invitation linking to `callbackUrl` (on a trusted domain). */
  sendSignInInvitation: ServerEmails['sendSignInInvitation'];
  /** The project as clients see it (display name, enabled sign-in methods). */
  getProject(): Promise<ClientProject>;
  /** Any operation of the spec with this app's credentials. */
  call: AppCall;
};

export type ServerApp = ServerCapabilities;

export function serverCapabilities(projectId: string, call: AppCall): ServerCapabilities {
  return {
    projectId,
    users: serverUsers(call),
    teams: serverTeams(call),
    sessions: serverSessions(call),
    contactChannels: serverContactChannels(call),
    teamPermissions: serverTeamPermissions(call),
    projectPermissions: serverProjectPermissions(call),
    apiKeys: serverApiKeys(call),
    dataVault: dataVault(call),
    payments: serverPayments(call),
    ...serverEmails(call),
    getProject: () => call(op.getCurrentProject) as Promise<ClientProject>,
    call,
  };
}

/**
 * The app of your backend, with the project's secret server key: users, teams and memberships,
 * sessions and impersonation, permissions, contact channels and API keys of any user. Reads answer
 * with the server views (metadata included); a missing user or team is `null`, other failures throw
 * the catalogued error classes.
 *
 * @example
 * ```ts
 * const server = createServerApp({ baseUrl: 'http://localhost:8102', projectId, secretServerKey: process.env.GATEHOUSE_SECRET_SERVER_KEY! });
 * const user = await server.users.create({ primary_email: 'ada@example.com', password: 'correct horse battery' });
 * const team = await server.teams.create({ display_name: 'Engines', creator_user_id: user.id });
 * await server.teamPermissions.grant(team.id, user.id, 'team_admin');
 * const tokens = await server.sessions.impersonate(user.id); // sign in as the user for support
 * const requester = await server.users.getByAccessToken(request.headers['x-stack-access-token']);
 * ```
 */
export function createServerApp(options: ServerAppOptions): ServerApp {
  const call = createBackendCall({ ...options, accessType: 'server' });
  return serverCapabilities(options.projectId, call);
}
