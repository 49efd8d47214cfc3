import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ContractResponse } from '@gatehouse/testing/contract';
import { expectError } from '@gatehouse/testing/expect-response';
import { withTestContext } from '@gatehouse/testing/test-context';
import type { UserWrite } from '../../identity/users/user-writes.ts';

/**
 * Team invitations (docs/protocol/endpoints.md §15): sending, listing and revoking them, and accepting, checking and
 * reading a code, which must not be used up by anything but a successful accept.
 */
const trustedDomains = { app: { baseUrl: 'https://app.example.com', handlerPath: '/handler' } };
const env = withTestContext({ projectConfig: { 'domains.trustedDomains': trustedDomains } });
const callback = 'https://app.example.com/handler/team-invitation';

type Headers = Record<string, string>;
type Method = 'GET' | 'POST' | 'DELETE';
const call = (method: Method, url: string, headers: Headers, payload?: object) =>
  env.context.request({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
const server = () => env.project.headers.server;
const newEmail = (label: string) => `${label}-${randomUUID().slice(0, 8)}@example.com`;
const emailsTo = (address: string) => env.context.sentEmails.filter((email) => email.to === address);

const expectMissing = (response: ContractResponse, team_id: string, user_id: string, permission_id: string) =>
  expectError(response, 401, 'TEAM_PERMISSION_REQUIRED', { team_id, user_id, permission_id });
const expectRestricted = (response: ContractResponse, type: string) =>
  expectError(response, 403, 'TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED', { restricted_reason: { type } });

/** A signed-in user owning `email` as a verified primary channel (unless overridden), with client headers. */
async function newUser(email: string | null = newEmail('user'), write: UserWrite = {}) {
  const { users, signIn } = env.context.services;
  const primary = email ? { primary_email: email, primary_email_verified: true, primary_email_auth_enabled: true } : {};
  const user = await users.create(env.project.project, { ...primary, ...write }, write.is_anonymous ? 'anonymous' : 'server');
  const { access_token } = await signIn.signIn(env.project.project, user);
  return { id: user.id, client: { ...env.project.headers.client, 'x-stack-access-token': access_token } };
}

const newTeam = async (creatorId?: string, name = 'Crew') =>
  (await env.context.services.teams.create(env.project.project, { display_name: name }, creatorId)).id;

const send = (teamId: string, email: string, headers: Headers = server(), url = callback) =>
  call('POST', '/team-invitations/send-code', headers, { team_id: teamId, email, callback_url: url });

/** Invites `email` with server access; the id from the response and the code from the email. */
async function invite(teamId: string, email = newEmail('invitee')) {
  const response = await send(teamId, email);
  expect(response.status, response.text).toBe(200);
  return { id: response.body.id as string, email, code: env.context.codeSentTo(email) };
}

const list = (teamId: string, headers: Headers = server()) => call('GET', `/team-invitations?team_id=${teamId}`, headers);
const listedIds = async (teamId: string) => (await list(teamId)).body.items.map((item: { id: string }) => item.id);
const revoke = (id: string, teamId: string, headers: Headers = server()) =>
  call('DELETE', `/team-invitations/${id}?team_id=${teamId}`, headers);
const accept = (code: string, headers: Headers) => call('POST', '/team-invitations/accept', headers, { code });
const check = (code: string) => call('POST', '/team-invitations/accept/check-code', env.project.headers.client, { code });
const details = (code: string) => call('POST', '/team-invitations/accept/details', env.project.headers.client, { code });
const expire = (code: string) => env.context.expireCode(code);
const directGrants = async (teamId: string, userId: string) =>
  (await call('GET', `/team-permissions?team_id=${teamId}&user_id=${userId}&recursive=false`, server())).body.items;
const teamIdsOf = async (headers: Headers) => (await call('GET', '/teams', headers)).body.items.map((team: { id: string }) => team.id);

/** A team with an owner (team_admin) and a member added by the server holding no permission at all. */
async function teamWithBareMember() {
  const owner = await newUser();
  const member = await newUser();
  const teamId = await newTeam(owner.id);
  expect((await call('POST', `/team-memberships/${teamId}/${member.id}`, server(), {})).status).toBe(201);
  expect((await call('DELETE', `/team-permissions/${teamId}/${member.id}/team_member`, server(), {})).status).toBe(200);
  return { owner, member, teamId };
}

describe('POST /team-invitations/send-code', () => {
  it('emails a link carrying the code and the team name; server access needs no permission', async () => {
    const teamId = await newTeam(undefined, 'Night Owls');
    const email = newEmail('invitee');
    const sent = await send(teamId, email);
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ success: true, id: expect.any(String) });
    const mails = emailsTo(email);
    expect(mails).toHaveLength(1);
    const code = env.context.codeSentTo(email);
    expect(mails[0]?.subject).toContain('Night Owls');
    expect(mails[0]?.text).toContain('Night Owls');
    expect(mails[0]?.text).toContain(`${callback}?code=${code}`);
    expect(await listedIds(teamId)).toEqual([sent.body.id]);
  });

  it('lets a client holding $invite_members invite, and refuses members without it', async () => {
    const { owner, member, teamId } = await teamWithBareMember();
    const byOwner = await send(teamId, newEmail('by-owner'), owner.client);
    expect(byOwner.status).toBe(200);
    expect(byOwner.body).toEqual({ success: true, id: expect.any(String) });

    const email = newEmail('refused');
    expectMissing(await send(teamId, email, member.client), teamId, member.id, '$invite_members');
    // team_member does not contain $invite_members either.
    await call('POST', `/team-permissions/${teamId}/${member.id}/team_member`, server(), {});
    expectMissing(await send(teamId, email, member.client), teamId, member.id, '$invite_members');
    expect(emailsTo(email)).toEqual([]);
    expect(await listedIds(teamId)).toEqual([byOwner.body.id]);
  });

  it('refuses an untrusted callback, a client without a user, and an unknown team, sending nothing', async () => {
    const teamId = await newTeam();
    const email = newEmail('never');
    const untrusted = 'https://evil.example.com/handler/team-invitation';
    expectError(await send(teamId, email, server(), untrusted), 400, 'REDIRECT_URL_NOT_WHITELISTED');
    expectError(await send(teamId, email, env.project.headers.client), 401, 'USER_AUTHENTICATION_REQUIRED');
    const unknownTeam = randomUUID();
    expectError(await send(unknownTeam, email), 404, 'TEAM_NOT_FOUND', { team_id: unknownTeam });
    expectError(await send(unknownTeam, email, (await newUser()).client), 404, 'TEAM_NOT_FOUND', { team_id: unknownTeam });
    expect(emailsTo(email)).toEqual([]);
    expect(await listedIds(teamId)).toEqual([]);
  });
});

describe('GET /team-invitations', () => {
  it('lists only pending invitations of the team, newest first', async () => {
    const owner = await newUser();
    const teamId = await newTeam(owner.id, 'Listed');
    const accepted = await invite(teamId);
    const revoked = await invite(teamId);
    const expired = await invite(teamId);
    const older = await invite(teamId);
    const newer = await invite(teamId);
    await invite(await newTeam(owner.id, 'Elsewhere'));
    expect((await accept(accepted.code, (await newUser(accepted.email)).client)).status).toBe(200);
    expect((await revoke(revoked.id, teamId)).status).toBe(200);
    await expire(expired.code);

    const listed = await list(teamId);
    expect(listed.status).toBe(200);
    expect(listed.body.is_paginated).toBe(false);
    const pending = [newer, older].map(({ id, email }) => ({
      id,
      team_id: teamId,
      team_display_name: 'Listed',
      expires_at_millis: expect.any(Number),
      recipient_email: email,
    }));
    expect(listed.body.items).toEqual(pending);
    for (const item of listed.body.items) {
      expect(Math.abs(item.expires_at_millis - (Date.now() + 7 * 24 * 3_600_000))).toBeLessThan(60_000);
    }
    expect((await list(teamId, owner.client)).body).toEqual(listed.body);
  });

  it('needs $read_members and $invite_members for clients; TEAM_NOT_FOUND for an unknown team', async () => {
    const { owner, member, teamId } = await teamWithBareMember();
    await invite(teamId);
    expectMissing(await list(teamId, member.client), teamId, member.id, '$read_members');
    await call('POST', `/team-permissions/${teamId}/${member.id}/team_member`, server(), {});
    expectMissing(await list(teamId, member.client), teamId, member.id, '$invite_members');
    const unknownTeam = randomUUID();
    expectError(await list(unknownTeam), 404, 'TEAM_NOT_FOUND', { team_id: unknownTeam });
    expectError(await list(unknownTeam, owner.client), 404, 'TEAM_NOT_FOUND', { team_id: unknownTeam });
  });
});

describe('DELETE /team-invitations/{invitation_id}', () => {
  it('revokes an invitation: no longer listed, and its code is refused', async () => {
    const owner = await newUser();
    const teamId = await newTeam(owner.id);
    const first = await invite(teamId);
    const second = await invite(teamId);
    const revoked = await revoke(first.id, teamId);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ success: true });
    expect(await listedIds(teamId)).toEqual([second.id]);
    expectError(await check(first.code), 409, 'VERIFICATION_CODE_ALREADY_USED');
    const invitee = await newUser(first.email);
    expectError(await accept(first.code, invitee.client), 409, 'VERIFICATION_CODE_ALREADY_USED');
    expect(await teamIdsOf(invitee.client)).toEqual([]);
    expectError(await revoke(first.id, teamId), 404, 'TEAM_INVITATION_NOT_FOUND', { team_id: teamId, invitation_id: first.id });

    expect((await revoke(second.id, teamId, owner.client)).body).toEqual({ success: true });
    expect(await listedIds(teamId)).toEqual([]);
  });

  it('needs $remove_members for clients; TEAM_INVITATION_NOT_FOUND for an unknown id or another team’s invitation', async () => {
    const { member, teamId } = await teamWithBareMember();
    const pending = await invite(teamId);
    expectMissing(await revoke(pending.id, teamId, member.client), teamId, member.id, '$remove_members');
    const unknown = randomUUID();
    expectError(await revoke(unknown, teamId), 404, 'TEAM_INVITATION_NOT_FOUND', { team_id: teamId, invitation_id: unknown });
    const otherTeam = await newTeam();
    expectError(await revoke(pending.id, otherTeam), 404, 'TEAM_INVITATION_NOT_FOUND', { team_id: otherTeam, invitation_id: pending.id });
    expect(await listedIds(teamId)).toEqual([pending.id]);
    expect((await check(pending.code)).body).toEqual({ is_code_valid: true });
  });
});

describe('POST /team-invitations/accept (with check-code and details)', () => {
  it('joins the team with the team-member default permissions; checking and details do not use the code', async () => {
    const teamId = await newTeam((await newUser()).id, 'Joinable');
    const { code, email } = await invite(teamId);
    for (let time = 0; time < 2; time++) {
      const checked = await check(code);
      expect(checked.status).toBe(200);
      expect(checked.body).toEqual({ is_code_valid: true });
      const read = await details(code);
      expect(read.status).toBe(200);
      expect(read.body).toEqual({ team_id: teamId, team_display_name: 'Joinable' });
    }
    const invitee = await newUser(email);
    const accepted = await accept(code, invitee.client);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({});
    expect(await directGrants(teamId, invitee.id)).toEqual([{ id: 'team_member', team_id: teamId, user_id: invitee.id }]);
    expect(await teamIdsOf(invitee.client)).toEqual([teamId]);
    expectError(await accept(code, invitee.client), 409, 'VERIFICATION_CODE_ALREADY_USED');
    expectError(await check(code), 409, 'VERIFICATION_CODE_ALREADY_USED');
    expectError(await details(code), 409, 'VERIFICATION_CODE_ALREADY_USED');
  });

  it('matches the email case-insensitively; an existing member just uses the code', async () => {
    const email = newEmail('mixed');
    const invitee = await newUser(email);
    const teamId = await newTeam(invitee.id);
    const { code } = await invite(teamId, email.toUpperCase());
    expect((await accept(code.toUpperCase(), invitee.client)).status).toBe(200);
    expect(await directGrants(teamId, invitee.id)).toEqual([{ id: 'team_admin', team_id: teamId, user_id: invitee.id }]);
    expectError(await check(code), 409, 'VERIFICATION_CODE_ALREADY_USED');
  });

  it('refuses a user who does not own the email as a verified channel, without using the code', async () => {
    const teamId = await newTeam();
    const { code, email } = await invite(teamId);
    const stranger = await newUser();
    const unverified = await newUser(email, { primary_email_verified: false, primary_email_auth_enabled: false });
    for (const user of [stranger, unverified]) {
      expectError(await accept(code, user.client), 403, 'TEAM_INVITATION_EMAIL_MISMATCH');
      expect(await teamIdsOf(user.client)).toEqual([]);
    }
    expect((await check(code)).body).toEqual({ is_code_valid: true });
    expect(await listedIds(teamId)).toHaveLength(1);
    expect((await accept(code, (await newUser(email)).client)).status).toBe(200);
  });

  it('refuses anonymous and admin-restricted users with the reason, without using the code', async () => {
    const teamId = await newTeam();
    const { code, email } = await invite(teamId);
    const anonymous = await newUser(null, { is_anonymous: true });
    expectRestricted(await accept(code, { ...anonymous.client, 'x-stack-allow-anonymous-user': 'true' }), 'anonymous');
    const restricted = await newUser(email, { restricted_by_admin: true, restricted_by_admin_reason: 'spam' });
    const allowed = { ...restricted.client, 'x-stack-allow-restricted-user': 'true' };
    expectRestricted(await accept(code, allowed), 'restricted_by_administrator');
    expect(await directGrants(teamId, restricted.id)).toEqual([]);
    expect((await check(code)).body).toEqual({ is_code_valid: true });
    expectError(await accept(code, env.project.headers.client), 401, 'USER_AUTHENTICATION_REQUIRED');
  });

  it('treats the invitations of a deleted team as gone (declared 404 VERIFICATION_CODE_NOT_FOUND)', async () => {
    const teamId = await newTeam();
    const { code, email } = await invite(teamId);
    expect((await call('DELETE', `/teams/${teamId}`, server(), {})).status).toBe(200);
    const invitee = await newUser(email);
    // TEAM_NOT_FOUND is not a declared response of these operations; the invitation simply no longer exists.
    expectError(await details(code), 404, 'VERIFICATION_CODE_NOT_FOUND');
    expectError(await check(code), 404, 'VERIFICATION_CODE_NOT_FOUND');
    expectError(await accept(code, invitee.client), 404, 'VERIFICATION_CODE_NOT_FOUND');
  });

  it('refuses expired, unknown and exhausted codes on accept, check-code and details', async () => {
    const teamId = await newTeam();
    const expired = await invite(teamId);
    await expire(expired.code);
    const invitee = await newUser(expired.email);
    expectError(await accept(expired.code, invitee.client), 400, 'VERIFICATION_CODE_EXPIRED');
    expectError(await check(expired.code), 400, 'VERIFICATION_CODE_EXPIRED');
    expectError(await details(expired.code), 400, 'VERIFICATION_CODE_EXPIRED');

    const reset = await env.context.services.verificationCodes.issue(env.project.project.id, 'password_reset', {});
    for (const code of ['a'.repeat(45), reset.code]) {
      expectError(await accept(code, invitee.client), 404, 'VERIFICATION_CODE_NOT_FOUND');
      expectError(await check(code), 404, 'VERIFICATION_CODE_NOT_FOUND');
      expectError(await details(code), 404, 'VERIFICATION_CODE_NOT_FOUND');
    }

    const guessed = await invite(teamId);
    const guesser = await newUser(guessed.email);
    const attempts = [(code: string) => accept(code, guesser.client), check, details];
    for (let attempt = 1; attempt <= 20; attempt++) {
      // '0' and '1' are not base32: the guessed first characters never equal the real ones.
      const response = await (attempts[attempt % 3] as typeof check)(`${String(attempt).padStart(6, '0')}${guessed.code.slice(6)}`);
      if (attempt < 20) expectError(response, 404, 'VERIFICATION_CODE_NOT_FOUND');
      else expectError(response, 400, 'VERIFICATION_CODE_MAX_ATTEMPTS_REACHED');
    }
    expectError(await accept(guessed.code, guesser.client), 400, 'VERIFICATION_CODE_MAX_ATTEMPTS_REACHED');
    expectError(await check(guessed.code), 400, 'VERIFICATION_CODE_MAX_ATTEMPTS_REACHED');
    expectError(await details(guessed.code), 400, 'VERIFICATION_CODE_MAX_ATTEMPTS_REACHED');
    expect(await teamIdsOf(guesser.client)).toEqual([]);
  });
});
