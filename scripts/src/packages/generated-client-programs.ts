/**
 * Two small programs as an integrator would write them over clients that stock generators made from
 * the served document: one over `openapi-typescript` types and `openapi-fetch`, one over the SDK
 * `@hey-api/openapi-ts` writes. Each signs a person up, meets `USER_EMAIL_ALREADY_EXISTS` on a second
 * sign-up with the same email, signs in, reads `/users/me`, creates a team and lists the person's
 * teams, then prints what it saw as one JSON line. They are compiled with `tsc` (strict, every
 * declaration checked) before they run, so a spec the generators turn into loose or wrong types fails
 * the compile, and one whose wire differs from the types fails the run.
 *
 * The error code is read as `error.code` once the error is known to be JSON: one 401 case (and the
 * refusals the document's `x-plain-text-errors` lists) answer plain text, as Stack's wire does, so an
 * operation's error union can carry a `string` (see docs/guide/generated-clients.md).
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
};

const shared = `
const [baseUrl, projectId, publishableClientKey, email] = process.argv.slice(2) as [string, string, string, string];
const password = 'generated-client-password-1';
`;

export const openapiFetchProgram = `import createClient from 'openapi-fetch';
import type { paths } from './openapi-typescript/schema.js';
${shared}
// The project's credentials go on every request; a person's access token is added per call.
const client = createClient<paths, 'application/json'>({
  baseUrl: baseUrl + '/api/v1',
  headers: { 'x-stack-project-id': projectId, 'x-stack-access-type': 'client', 'x-stack-publishable-client-key': publishableClientKey },
});

const signUp = await client.POST('/auth/password/sign-up', { body: { email, password } });
if (!signUp.data) throw new Error('sign-up failed: ' + JSON.stringify(signUp.error));
const duplicate = await client.POST('/auth/password/sign-up', { body: { email, password } });
const duplicateError = typeof duplicate.error === 'object' && 'code' in duplicate.error ? duplicate.error : undefined;
// The 409's details are typed: reachable once the code says which error this is.
const duplicateEmail = duplicateError?.code === 'USER_EMAIL_ALREADY_EXISTS' ? duplicateError.details.email : undefined;

const signIn = await client.POST('/auth/password/sign-in', { body: { email, password } });
if (!signIn.data) throw new Error('sign-in failed: ' + JSON.stringify(signIn.error));
const asPerson = { 'x-stack-access-token': signIn.data.access_token };
const me = await client.GET('/users/me', { headers: asPerson });
const team = await client.POST('/teams', { headers: asPerson, body: { display_name: 'Team from openapi-fetch', creator_user_id: 'me' } });
const teams = await client.GET('/teams', { headers: asPerson, params: { query: { user_id: 'me' } } });

console.log(JSON.stringify({
  signUpUserId: signUp.data.user_id,
  duplicateStatus: duplicate.response.status,
  duplicateCode: duplicateError?.code,
  duplicateEmail,
  meId: me.data?.id,
  meEmail: me.data?.primary_email,
  teamName: team.data?.display_name,
  listedTeams: teams.data?.items.map((listed) => listed.display_name) ?? [],
}));
`;

export const heyApiProgram = `import { client } from './hey-api/client.gen.js';
import { createTeam, getCurrentUser, listTeams, signInWithPassword, signUpWithPassword } from './hey-api/sdk.gen.js';
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
const duplicateError = typeof duplicate.error === 'object' ? duplicate.error : undefined;
const duplicateEmail = duplicateError?.code === 'USER_EMAIL_ALREADY_EXISTS' ? duplicateError.details.email : undefined;

const signIn = await signInWithPassword({ body: { email, password } });
if (!signIn.data) throw new Error('sign-in failed: ' + JSON.stringify(signIn.error));
accessToken = signIn.data.access_token;
const me = await getCurrentUser();
const team = await createTeam({ body: { display_name: 'Team from hey-api', creator_user_id: 'me' } });
const teams = await listTeams({ query: { user_id: 'me' } });

console.log(JSON.stringify({
  signUpUserId: signUp.data.user_id,
  duplicateStatus: duplicate.response?.status,
  duplicateCode: duplicateError?.code,
  duplicateEmail,
  meId: me.data?.id,
  meEmail: me.data?.primary_email,
  teamName: team.data?.display_name,
  listedTeams: teams.data?.items.map((listed) => listed.display_name) ?? [],
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
