import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as generatedErrors from '@gatehouse/protocol/errors';
import { knownErrorClasses, rebuildKnownError } from '@gatehouse/protocol/error-table';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import openapi from '../../server/src/generated/openapi.json' with { type: 'json' };
import { type ReferenceEntry, catalogueParity, gatehouseOwnCodes } from './catalogue-parity.ts';
import type { OpenApiDocument } from './openapi-document.ts';

const reference = parse(readFileSync(fileURLToPath(new URL('../reference/stack-auth-errors.yaml', import.meta.url)), 'utf8')) as {
  count: number;
  errors: ReferenceEntry[];
};
const spec = openapi as unknown as OpenApiDocument;
const classNames = new Set(
  Object.entries(generatedErrors)
    .filter(([, value]) => typeof value === 'function')
    .map(([name]) => name),
);

describe('error catalogue parity', () => {
  it('has all 144 reference codes in the spec, each with its class, status, parent and details', () => {
    expect(reference.errors).toHaveLength(reference.count);
    expect(reference.count).toBe(144);
    expect(catalogueParity(reference.errors, spec, classNames)).toEqual([]);
  });

  it('maps every sendable code to its class, whose instances carry that code and status', () => {
    const concrete = reference.errors.filter((entry) => !entry.abstract);
    expect(Object.keys(knownErrorClasses).sort()).toEqual([...concrete.map((entry) => entry.code), ...gatehouseOwnCodes(spec)].sort());
    for (const entry of concrete) {
      const errorClass = knownErrorClasses[entry.code as generatedErrors.KnownErrorCode];
      const rebuilt = rebuildKnownError({ code: entry.code, error: 'x', details: {} }, Number(entry.status));
      expect(rebuilt).toBeInstanceOf(errorClass);
      expect(rebuilt).toBeInstanceOf(generatedErrors.KnownError);
      expect(errorClass.status).toBe(entry.status);
    }
  });

  it('rebuilds an error answer with the class a module imports statically (the table loads on demand)', async () => {
    const rebuilt = await generatedErrors.knownErrorFromBody({ code: 'TEAM_NOT_FOUND', error: 'No team.', details: { team_id: 't' } }, 404);
    expect(rebuilt).toBeInstanceOf(generatedErrors.TeamNotFoundError);
    expect(rebuilt).toMatchObject({ code: 'TEAM_NOT_FOUND', status: 404, message: 'No team.', details: { team_id: 't' } });
    expect(await generatedErrors.knownErrorFromBody({ code: 'NOT_A_CODE', error: 'x' }, 400)).toBeUndefined();
  });

  it('lists in each family the codes of exactly the classes that extend it', () => {
    const families = Object.values(generatedErrors as Record<string, unknown>).filter(
      (value): value is generatedErrors.KnownErrorFamily => typeof value === 'function' && Object.hasOwn(value, 'memberCodes'),
    );
    expect(families.length).toBeGreaterThanOrEqual(11);
    for (const family of families) {
      const members = Object.entries(knownErrorClasses)
        .filter(([, errorClass]) => errorClass.prototype instanceof family)
        .map(([code]) => code);
      expect([...family.memberCodes].sort(), family.name).toEqual(members.sort());
      for (const code of members) expect(generatedErrors.isCodeInFamily(code, family)).toBe(true);
    }
    expect(generatedErrors.isCodeInFamily('ACCESS_TOKEN_EXPIRED', generatedErrors.InvalidAccessTokenError)).toBe(true);
    expect(generatedErrors.isCodeInFamily('REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', generatedErrors.InvalidAccessTokenError)).toBe(false);
    expect(generatedErrors.isCodeInFamily(undefined, generatedErrors.InvalidAccessTokenError)).toBe(false);
  });

  it('keeps families: a child is an instance of its abstract parent', () => {
    const expired = new generatedErrors.AccessTokenExpiredError({
      expired_at_millis: 1,
      project_id: 'p',
      user_id: null,
      refresh_token_id: null,
    });
    expect(expired).toBeInstanceOf(generatedErrors.InvalidAccessTokenError);
    expect(expired).toBeInstanceOf(generatedErrors.SessionAuthenticationError);
    expect(expired.toBody()).toEqual({ code: 'ACCESS_TOKEN_EXPIRED', error: expired.message, details: expired.details });
    expect(new generatedErrors.InvalidAccessTypeError().toBody()).not.toHaveProperty('details');
  });

  it('fails when a code is removed from the spec, its response is removed, or its class is missing', () => {
    const withoutSchema = structuredClone(spec);
    delete withoutSchema.components.schemas.SchemaError;
    expect(catalogueParity(reference.errors, withoutSchema, classNames)).toContain('SCHEMA_ERROR: no schema in the spec');

    const withoutResponse = structuredClone(spec);
    delete withoutResponse.components.responses.USER_NOT_FOUND;
    expect(catalogueParity(reference.errors, withoutResponse, classNames)).toContain('USER_NOT_FOUND: no response in components/responses');

    const fewerClasses = new Set(classNames);
    fewerClasses.delete('BranchDoesNotExistError');
    expect(catalogueParity(reference.errors, spec, fewerClasses)).toContain(
      'BRANCH_DOES_NOT_EXIST: no generated class BranchDoesNotExistError',
    );

    const missingReference = reference.errors.filter((entry) => entry.code !== 'EMAIL_NOT_VERIFIED');
    expect(catalogueParity(missingReference, spec, classNames)).toContain(
      'EMAIL_NOT_VERIFIED: in the spec but not in the reference catalogue',
    );

    const unmarked = structuredClone(spec);
    delete (unmarked.components.schemas.WebhookEndpointNotFoundError as Record<string, unknown>)['x-error-origin'];
    expect(catalogueParity(reference.errors, unmarked, classNames)).toContain(
      'WEBHOOK_ENDPOINT_NOT_FOUND: in the spec but not in the reference catalogue',
    );
  });

  it('fails when a status or a details field drifts', () => {
    const drifted = structuredClone(spec);
    (drifted.components.schemas.UserNotFoundError as Record<string, unknown>)['x-error-status'] = 400;
    const details = (drifted.components.schemas.SchemaError as { properties: { details: { properties: Record<string, unknown> } } })
      .properties.details;
    delete details.properties.message;
    const problems = catalogueParity(reference.errors, drifted, classNames);
    expect(problems).toContain('USER_NOT_FOUND: status 400, expected 404');
    expect(problems).toContain('SCHEMA_ERROR: details [] expected [message]');
  });
});
