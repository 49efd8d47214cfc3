/**
 * Two small programs as an integrator would write them over clients that stock generators made from
 * the served document: one over `openapi-typescript` types and `openapi-fetch`, one over the SDK
 * `@hey-api/openapi-ts` writes. Each signs a person up, meets `USER_EMAIL_ALREADY_EXISTS` on a second
 * sign-up with the same email, signs in, reads `/users/me`, creates a team and lists the person's
 * teams, then prints what it saw as one JSON line. They are compiled with `tsc` (strict, every
 * declaration checked) before they run, so a spec the generators turn into loose or wrong types fails
 * the compile, and one whose wire differs from the types fails the run.
 *
 * Both are generated from the client-access view of the document (`openapi.json?access_type=client`), as
 * a browser app's client is: the view has each access-dependent shape as client access gets it, so a
 * server-only field in `PATCH /users/me` does not compile (the `@ts-expect-error` line fails the compile
 * when the type admits it), and the only plain-text 401 (a deleted admin's token, which client access
 * never sends) is not in it, so `error.code` reads without narrowing (see docs/guide/generated-clients.md).
 */
export type ProgramOutput = {
  signUpUserId: string;
  duplicateStatus: number;
  duplicateCode: string | undefined;
  duplicateEmail: string | undefined;
  meId: string | undefined;
  meEmail: string | null | undefined;
  teamName: string | undefined;
  listedTeams: string[];
  serverOnlyFieldStatus: number;
  serverOnlyFieldCode: string | undefined;
  /** Server-only team metadata sent with client access: creating, then changing a team. */
  serverOnlyTeamFieldStatuses: [number | undefined, number | undefined];
};

const shared = `
const [baseUrl, projectId, publishableClientKey, email] = process.argv.slice(2) as [string, string, string, string];
const password = 'generated-client-password-1';
`;

export const openapiFetchProgram = `import createClient from 'openapi-fetch';
import type { paths } from './openapi-typescript/schema.js';
${shared}
// The project's credentials go on every request; a person's access token is added per call.
// No media-type filter (\`createClient<paths, 'application/json'>\`) is needed for sign-up's errors to be JSON.
const client = createClient<paths>({
  baseUrl: baseUrl + '/api/v1',
  headers: { 'x-stack-project-id': projectId, 'x-stack-access-type': 'client', 'x-stack-publishable-client-key': publishableClientKey },
});

const signUp = await client.POST('/auth/password/sign-up', { body: { email, password } });
if (!signUp.data) throw new Error('sign-up failed: ' + JSON.stringify(signUp.error));
const duplicate = await client.POST('/auth/password/sign-up', { body: { email, password } });
// Every error of the operation is JSON in the client view: the code reads directly, and comparing it types the details.
const duplicateCode = duplicate.error?.code;
const duplicateEmail = duplicate.error?.code === 'USER_EMAIL_ALREADY_EXISTS' ? duplicate.error.details.email : undefined;

const signIn = await client.POST('/auth/password/sign-in', { body: { email, password } });
if (!signIn.data) throw new Error('sign-in failed: ' + JSON.stringify(signIn.error));
const asPerson = { 'x-stack-access-token': signIn.data.access_token };
const me = await client.GET('/users/me', { headers: asPerson });
// Client access may not set server metadata: the client view's body type says so, and so does the server.
// (openapi-fetch infers its init argument, which skips excess-property checks, so the body is typed first.)
type MeUpdate = paths['/users/me']['patch']['requestBody']['content']['application/json'];
// @ts-expect-error server_metadata is not a field of CurrentUserClientUpdate
const serverOnlyBody: MeUpdate = { server_metadata: { plan: 'pro' } };
const serverOnly = await client.PATCH('/users/me', { headers: asPerson, body: serverOnlyBody });
const team = await client.POST('/teams', { headers: asPerson, body: { display_name: 'Team from openapi-fetch', creator_user_id: 'me' } });
const teams = await client.GET('/teams', { headers: asPerson, params: { query: { user_id: 'me' } } });
// Nor server-only team metadata, on a new team or a changed one.
type TeamCreateBody = paths['/teams']['post']['requestBody']['content']['application/json'];
type TeamUpdateBody = paths['/teams/{team_id}']['patch']['requestBody']['content']['application/json'];
// @ts-expect-error server_metadata is not a field of ClientTeamCreate
const serverOnlyTeamBody: TeamCreateBody = { display_name: 'Not this one', server_metadata: { plan: 'pro' } };
// @ts-expect-error client_read_only_metadata is not a field of ClientTeamUpdate
const serverOnlyTeamChange: TeamUpdateBody = { client_read_only_metadata: { tier: 'gold' } };
const serverOnlyTeam = await client.POST('/teams', { headers: asPerson, body: serverOnlyTeamBody });
const serverOnlyTeamUpdate = await client.PATCH('/teams/{team_id}', { headers: asPerson, params: { path: { team_id: team.data?.id ?? '' } }, body: serverOnlyTeamChange });

console.log(JSON.stringify({
  signUpUserId: signUp.data.user_id,
  duplicateStatus: duplicate.response.status,
  duplicateCode,
  duplicateEmail,
  meId: me.data?.id,
  meEmail: me.data?.primary_email,
  teamName: team.data?.display_name,
  listedTeams: teams.data?.items.map((listed) => listed.display_name) ?? [],
  serverOnlyFieldStatus: serverOnly.response.status,
  // Read from the header: this operation also has Stack's plain-text 400s (x-plain-text-errors).
  serverOnlyFieldCode: serverOnly.response.headers.get('x-stack-known-error') ?? undefined,
  serverOnlyTeamFieldStatuses: [serverOnlyTeam.response.status, serverOnlyTeamUpdate.response.status],
}));
`;

export const heyApiProgram = `import { client } from './hey-api/client.gen.js';
import { createTeam, getCurrentUser, listTeams, signInWithPassword, signUpWithPassword, updateCurrentUser, updateTeam } from './hey-api/sdk.gen.js';
${shared}
// The generated SDK asks for each credential the operation's security names, by header name.
let accessToken: string | undefined;
const credentials: Record<string, string | undefined> = {
  'X-Stack-Project-Id': projectId,
  'X-Stack-Access-Type': 'client',
  'X-Stack-Publishable-Client-Key': publishableClientKey,
};
client.setConfig({ baseUrl: baseUrl + '/api/v1', auth: (scheme) => (scheme.name === 'X-Stack-Access-Token' ? accessToken : credentials[scheme.name ?? '']) });

const signUp = await signUpWithPassword({ body: { email, password } });
if (!signUp.data) throw new Error('sign-up failed: ' + JSON.stringify(signUp.error));
const duplicate = await signUpWithPassword({ body: { email, password } });
const duplicateCode = duplicate.error?.code;
const duplicateEmail = duplicate.error?.code === 'USER_EMAIL_ALREADY_EXISTS' ? duplicate.error.details.email : undefined;

const signIn = await signInWithPassword({ body: { email, password } });
if (!signIn.data) throw new Error('sign-in failed: ' + JSON.stringify(signIn.error));
accessToken = signIn.data.access_token;
const me = await getCurrentUser();
// @ts-expect-error server_metadata is not a field of CurrentUserClientUpdate
const serverOnly = await updateCurrentUser({ body: { server_metadata: { plan: 'pro' } } });
const team = await createTeam({ body: { display_name: 'Team from hey-api', creator_user_id: 'me' } });
const teams = await listTeams({ query: { user_id: 'me' } });
// @ts-expect-error server_metadata is not a field of ClientTeamCreate
const serverOnlyTeam = await createTeam({ body: { display_name: 'Not this one', server_metadata: { plan: 'pro' } } });
// @ts-expect-error client_read_only_metadata is not a field of ClientTeamUpdate
const serverOnlyTeamUpdate = await updateTeam({ path: { team_id: team.data?.id ?? '' }, body: { client_read_only_metadata: { tier: 'gold' } } });

console.log(JSON.stringify({
  signUpUserId: signUp.data.user_id,
  duplicateStatus: duplicate.response?.status,
  duplicateCode,
  duplicateEmail,
  meId: me.data?.id,
  meEmail: me.data?.primary_email,
  teamName: team.data?.display_name,
  listedTeams: teams.data?.items.map((listed) => listed.display_name) ?? [],
  serverOnlyFieldStatus: serverOnly.response?.status,
  serverOnlyFieldCode: serverOnly.error?.code,
  serverOnlyTeamFieldStatuses: [serverOnlyTeam.response?.status, serverOnlyTeamUpdate.response?.status],
}));
`;

/** Strict, as a careful integrator compiles: every shipped and generated declaration checked. */
export const programsTsconfig = {
  compilerOptions: {
    strict: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: false,
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2022', 'DOM'],
    types: ['node'],
    outDir: 'dist',
  },
  files: ['openapi-fetch-program.ts', 'hey-api-program.ts'],
};
