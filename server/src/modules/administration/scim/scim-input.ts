import { scimPatch } from 'scim-patch';
import { ScimProtocolError } from '../../../lib/scim-error.ts';
import type { ScimObject } from './scim-resources.ts';

const text = (value: unknown, max: number): string | undefined =>
  typeof value === 'string' && value.trim() !== '' && value.length <= max ? value.trim() : undefined;

const invalid = (detail: string) => new ScimProtocolError(400, detail, 'invalidValue');

/** `active` as Okta (a boolean) and Entra ID (also the strings "True"/"False") send it; absent is true. */
export function readActive(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  throw invalid('`active` must be a boolean.');
}

export type UserInput = { userName: string; email: string; displayName: string | null; externalId: string | null; active: boolean };

/** The attributes of a SCIM User this service uses; the rest is kept as given. */
export function readUser(resource: ScimObject): UserInput {
  const userName = text(resource.userName, 320);
  if (!userName) throw invalid('`userName` is required (a string of at most 320 characters).');
  const emails = Array.isArray(resource.emails) ? (resource.emails as Array<{ value?: unknown; primary?: unknown }>) : [];
  const primary = emails.find((email) => email?.primary === true || email?.primary === 'True') ?? emails[0];
  const email = text(primary?.value, 320) ?? (userName.includes('@') ? userName : undefined);
  if (!email || !/^[^\s@]+@[^\s@]+$/.test(email)) throw invalid('An email address is required: `userName` or a value of `emails`.');
  const name = (resource.name ?? {}) as { formatted?: unknown; givenName?: unknown; familyName?: unknown };
  const joined = [text(name.givenName, 200), text(name.familyName, 200)].filter(Boolean).join(' ');
  const displayName = text(resource.displayName, 200) ?? text(name.formatted, 200) ?? (joined || null);
  const externalId = text(resource.externalId, 500) ?? null;
  return { userName, email: email.toLowerCase(), displayName, externalId, active: readActive(resource.active) };
}

export type GroupInput = { displayName: string; externalId: string | null; memberIds: string[] };

export function readGroup(resource: ScimObject): GroupInput {
  const displayName = text(resource.displayName, 200);
  if (!displayName) throw invalid('`displayName` is required (a string of at most 200 characters).');
  const members = Array.isArray(resource.members) ? (resource.members as Array<{ value?: unknown }>) : [];
  const memberIds = [...new Set(members.map((member) => text(member?.value, 100)).filter((id): id is string => id !== undefined))];
  return { displayName, externalId: text(resource.externalId, 500) ?? null, memberIds };
}

/**
 * Entra ID removes group members as `{op: Remove, path: members, value: [{value: id}]}`: one removal
 * per member by a value filter, which `scim-patch` matches whatever else the stored members carry.
 */
function removalsByValue(operation: { op: string; path?: unknown; value?: unknown }): Array<Record<string, unknown>> {
  const { op, path, value } = operation;
  if (op !== 'remove' || typeof path !== 'string' || !/^[A-Za-z]+$/.test(path) || !Array.isArray(value)) return [operation];
  return value.map((item: { value?: unknown }) => {
    if (typeof item?.value !== 'string' || /["\\]/.test(item.value))
      throw new ScimProtocolError(400, 'A removed member needs its `value`.', 'invalidValue');
    return { op, path: `${path}[value eq "${item.value}"]` };
  });
}

/**
 * Applies a PatchOp (RFC 7644 §3.5.2) to the resource with `scim-patch`. Operation names are
 * case-insensitive (Entra ID sends `Replace`); a path-less operation's value object is merged.
 */
export function applyPatch(resource: ScimObject, body: ScimObject): ScimObject {
  const operations = body.Operations;
  if (!Array.isArray(operations) || operations.length === 0 || operations.length > 1000)
    throw new ScimProtocolError(400, 'A PatchOp needs `Operations` (1 to 1000 operations).', 'invalidSyntax');
  const normalized = operations
    .map((operation: unknown) => {
      if (operation === null || typeof operation !== 'object' || typeof (operation as { op?: unknown }).op !== 'string')
        throw new ScimProtocolError(400, 'Every operation needs an `op`.', 'invalidSyntax');
      const { op, ...rest } = operation as { op: string };
      return { op: op.toLowerCase(), ...rest };
    })
    .flatMap(removalsByValue);
  try {
    // scim-patch types the operations strictly; they were checked above as far as this service needs.
    const patched: unknown = scimPatch(structuredClone(resource) as never, normalized as never, {
      mutateDocument: false,
      treatMissingAsAdd: true,
    });
    return patched as ScimObject;
  } catch (error) {
    const scimType = (error as { scimType?: string }).scimType;
    const known = scimType === 'invalidPath' || scimType === 'noTarget' || scimType === 'invalidValue' ? scimType : 'invalidSyntax';
    throw new ScimProtocolError(400, `The patch cannot be applied: ${(error as Error).message}`, known);
  }
}
