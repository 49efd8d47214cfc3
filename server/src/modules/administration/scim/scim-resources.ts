import { filter as compileFilter, type Filter, parse as parseFilter } from 'scim2-parse-filter';
import { ScimProtocolError } from '../../../lib/scim-error.ts';
import type { ScimGroupRow, ScimUserRow } from './scim.table.ts';

export const userSchema = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const groupSchema = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const listSchema = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export type ScimObject = Record<string, unknown>;

export function toScimUser(row: ScimUserRow, baseUrl: string): ScimObject {
  return {
    ...row.resource,
    schemas: [userSchema, ...((row.resource.schemas as string[] | undefined) ?? []).filter((schema) => schema !== userSchema)],
    id: row.id,
    userName: row.user_name,
    ...(row.external_id === null ? {} : { externalId: row.external_id }),
    active: row.active,
    meta: {
      resourceType: 'User',
      created: row.created_at.toISOString(),
      lastModified: row.updated_at.toISOString(),
      location: `${baseUrl}/Users/${row.id}`,
    },
  };
}

export function toScimGroup(row: ScimGroupRow, baseUrl: string): ScimObject {
  return {
    schemas: [groupSchema],
    id: row.id,
    displayName: row.display_name,
    ...(row.external_id === null ? {} : { externalId: row.external_id }),
    members: row.member_ids.map((value) => ({ value, $ref: `${baseUrl}/Users/${value}` })),
    meta: {
      resourceType: 'Group',
      created: row.created_at.toISOString(),
      lastModified: row.updated_at.toISOString(),
      location: `${baseUrl}/Groups/${row.id}`,
    },
  };
}

/** Most resources one page holds (`count` above it is lowered, as RFC 7644 §3.4.2.4 allows). */
export const maxPageSize = 100;

/** A ListResponse of the resources matching `filter`, from index `startIndex` (1-based). */
export function listResponse(resources: ScimObject[], query: { filter?: string; startIndex?: number; count?: number }): ScimObject {
  const matching = query.filter === undefined ? resources : resources.filter(compile(query.filter));
  const start = Math.max(query.startIndex ?? 1, 1);
  const count = Math.min(query.count ?? maxPageSize, maxPageSize);
  const page = matching.slice(start - 1, start - 1 + count);
  return { schemas: [listSchema], totalResults: matching.length, startIndex: start, itemsPerPage: page.length, Resources: page };
}

/** A filter as a predicate (the library compares attribute names case-insensitively, as RFC 7643 §2.1 says). */
function compile(text: string): (resource: ScimObject) => boolean {
  let predicate: (resource: unknown) => boolean;
  try {
    predicate = compileFilter(lowerUserNameValues(parseFilter(text)));
  } catch (error) {
    throw new ScimProtocolError(400, `The filter is not valid: ${(error as Error).message}`, 'invalidFilter');
  }
  return (resource) =>
    predicate(typeof resource.userName === 'string' ? { ...resource, userName: resource.userName.toLowerCase() } : resource);
}

/** `userName` is not case-exact (RFC 7643 §4.1.1): its comparisons run on lowercase on both sides. */
function lowerUserNameValues(filter: Filter): Filter {
  if ('filters' in filter) return { ...filter, filters: filter.filters.map(lowerUserNameValues) };
  if (filter.op === 'not') return { ...filter, filter: lowerUserNameValues(filter.filter) };
  if ('compValue' in filter && filter.attrPath.toLowerCase() === 'username' && typeof filter.compValue === 'string')
    return { ...filter, compValue: filter.compValue.toLowerCase() };
  return filter;
}

export const listOf = (resources: ScimObject[]): ScimObject => ({
  schemas: [listSchema],
  totalResults: resources.length,
  startIndex: 1,
  itemsPerPage: resources.length,
  Resources: resources,
});

export const serviceProviderConfig = (baseUrl: string): ScimObject => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
  documentationUri: 'https://gatehouse.dev/guide/scim-and-audit-log',
  patch: { supported: true },
  bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
  filter: { supported: true, maxResults: maxPageSize },
  changePassword: { supported: false },
  sort: { supported: false },
  etag: { supported: false },
  authenticationSchemes: [
    { type: 'oauthbearertoken', name: 'Bearer token', description: 'The token of this SCIM directory.', primary: true },
  ],
  meta: { resourceType: 'ServiceProviderConfig', location: `${baseUrl}/ServiceProviderConfig` },
});

export const resourceTypes = (baseUrl: string): ScimObject[] => [
  {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
    id: 'User',
    name: 'User',
    endpoint: '/Users',
    schema: userSchema,
    meta: { resourceType: 'ResourceType', location: `${baseUrl}/ResourceTypes/User` },
  },
  {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
    id: 'Group',
    name: 'Group',
    endpoint: '/Groups',
    schema: groupSchema,
    meta: { resourceType: 'ResourceType', location: `${baseUrl}/ResourceTypes/Group` },
  },
];

const attribute = (name: string, type: string, extra: ScimObject = {}) => ({
  name,
  type,
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...extra,
});

export const schemas = (baseUrl: string): ScimObject[] => [
  {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:Schema'],
    id: userSchema,
    name: 'User',
    attributes: [
      attribute('userName', 'string', { required: true, uniqueness: 'server' }),
      attribute('name', 'complex', {
        subAttributes: [attribute('givenName', 'string'), attribute('familyName', 'string'), attribute('formatted', 'string')],
      }),
      attribute('displayName', 'string'),
      attribute('active', 'boolean'),
      attribute('emails', 'complex', {
        multiValued: true,
        subAttributes: [attribute('value', 'string'), attribute('type', 'string'), attribute('primary', 'boolean')],
      }),
      attribute('externalId', 'string', { caseExact: true }),
    ],
    meta: { resourceType: 'Schema', location: `${baseUrl}/Schemas/${userSchema}` },
  },
  {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:Schema'],
    id: groupSchema,
    name: 'Group',
    attributes: [
      attribute('displayName', 'string', { required: true }),
      attribute('members', 'complex', { multiValued: true, subAttributes: [attribute('value', 'string', { mutability: 'immutable' })] }),
      attribute('externalId', 'string', { caseExact: true }),
    ],
    meta: { resourceType: 'Schema', location: `${baseUrl}/Schemas/${groupSchema}` },
  },
];
