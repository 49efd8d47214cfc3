import { createHash } from 'node:crypto';
import { servedOpenApiDocument } from '../../../plugins/openapi-document.ts';

export type AccessType = 'client' | 'server' | 'admin';
export type DocumentView = { accessType?: AccessType; overrideErrorStatus?: boolean };

type Json = Record<string, unknown>;
type Operation = Json & { responses?: Record<string, Json>; security?: Array<Record<string, string[]>>; 'x-access-types'?: AccessType[] };

/**
 * Views of the one served document (the spec stays the single source; a view is a projection of it, made
 * on request and kept). The wire does not change: a view only describes, more precisely, what a request of
 * one kind sends and gets, so that tools which cannot vary a type by a request header (generators,
 * validating proxies) still get exact types.
 * - `accessType`: OpenAPI cannot make a body or an answer depend on `X-Stack-Access-Type`, so the whole
 *   document declares unions (`CurrentUser` is the client or the server view). A union marked
 *   `x-access-type-variants` (access type → component name) becomes that component in the view; operations
 *   the access type may not call and credential combinations of other access types are left out, and so is
 *   the plain-text 401 `DeletedAdminUserText` outside admin: only an admin access token meets it, and the view
 *   admits no such token, so a client's error types are JSON only.
 * - `overrideErrorStatus`: Stack's SDKs send `X-Stack-Override-Error-Status`, and the server then answers a
 *   4xx as a 200 with the same body and the real status in `X-Stack-Actual-Status`. The view says so in
 *   each operation's 200, so a validating proxy accepts those answers (a generated client should not use it:
 *   every success type becomes a union with the errors).
 */
const keySchemesOf: Record<AccessType, string[]> = {
  client: ['PublishableClientKey'],
  server: ['SecretServerKey'],
  admin: ['SuperSecretAdminKey', 'AdminAccessToken'],
};
const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const deletedAdminText = '#/components/schemas/DeletedAdminUserText';

/** A view as it is sent: its bytes (encoded once: the whole document is 1.5 MB) and a strong ETag of them. */
export type ServedView = { body: Buffer; etag: string };

const views = new Map<string, ServedView>();

/** The served bytes of a view (the whole document when no view is asked), made on the first request for it and kept. */
export function servedOpenApiView(view: DocumentView): ServedView {
  const key = `${view.accessType ?? ''}:${view.overrideErrorStatus === true}`;
  let served = views.get(key);
  if (served === undefined) {
    const whole = !view.accessType && !view.overrideErrorStatus;
    const text = whole ? servedOpenApiDocument() : JSON.stringify(openApiView(JSON.parse(servedOpenApiDocument()) as Json, view));
    const body = Buffer.from(text, 'utf8');
    served = { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"` };
    views.set(key, served);
  }
  return served;
}

/** Whether an `If-None-Match` header names `etag` (a list, `*`, or weak forms, compared weakly as RFC 9110 §13.1.2 says). */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** Projects a parsed document (changed in place and returned). */
export function openApiView(document: Json, view: DocumentView): Json {
  const info = document.info as Json;
  if (view.accessType) {
    restrictToAccessType(document, view.accessType);
    info.title = `${String(info.title)} (${view.accessType} access)`;
    document['x-access-type'] = view.accessType;
  }
  if (view.overrideErrorStatus) {
    describeOverrideErrorStatus(document);
    document['x-override-error-status'] = true;
  }
  return document;
}

function operationsOf(document: Json): Array<[Json, string, Operation]> {
  const found: Array<[Json, string, Operation]> = [];
  for (const pathItem of Object.values(document.paths as Record<string, Json>)) {
    for (const method of methods) if (pathItem[method]) found.push([pathItem, method, pathItem[method] as Operation]);
  }
  return found;
}

function restrictToAccessType(document: Json, accessType: AccessType): void {
  const otherKeySchemes = new Set(Object.entries(keySchemesOf).flatMap(([type, schemes]) => (type === accessType ? [] : schemes)));
  for (const [pathItem, method, operation] of operationsOf(document)) {
    const allowed = operation['x-access-types'];
    if (allowed && !allowed.includes(accessType)) {
      delete pathItem[method];
      continue;
    }
    if (allowed) operation['x-access-types'] = [accessType];
    if (operation.security) {
      const own = operation.security.filter((requirement) => !Object.keys(requirement).some((scheme) => otherKeySchemes.has(scheme)));
      if (own.length > 0) operation.security = own;
    }
  }
  const paths = document.paths as Record<string, Json>;
  for (const [path, pathItem] of Object.entries(paths)) if (!methods.some((method) => pathItem[method])) delete paths[path];
  narrowVariants(document, accessType);
  if (accessType !== 'admin') dropDeletedAdminText(document);
}

/** Every `x-access-type-variants` union, anywhere in the document, replaced by the access type's component. */
function narrowVariants(node: unknown, accessType: AccessType): void {
  if (Array.isArray(node)) {
    for (const item of node) narrowVariants(item, accessType);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const schema = node as Json;
  const variants = schema['x-access-type-variants'] as Record<AccessType, string> | undefined;
  if (variants) {
    for (const key of ['oneOf', 'anyOf', 'x-access-type-variants']) delete schema[key];
    schema.$ref = `#/components/schemas/${variants[accessType]}`;
    return;
  }
  for (const value of Object.values(schema)) narrowVariants(value, accessType);
}

/** Responses (shared or inline) whose plain-text body is only the deleted admin's 401 lose that body. */
function dropDeletedAdminText(document: Json): void {
  const responses = [
    ...Object.values((document.components as Json).responses as Record<string, Json>),
    ...operationsOf(document).flatMap(([, , operation]) => Object.values(operation.responses ?? {})),
  ];
  for (const response of responses) {
    const content = response.content as Record<string, Json> | undefined;
    const text = content?.['text/plain']?.schema as Json | undefined;
    if (content && text?.$ref === deletedAdminText) delete content['text/plain'];
  }
}

function resolveResponse(document: Json, response: Json): Json {
  const ref = response.$ref;
  if (typeof ref !== 'string') return response;
  const name = ref.replace('#/components/responses/', '');
  return ((document.components as Json).responses as Record<string, Json>)[name] as Json;
}

function describeOverrideErrorStatus(document: Json): void {
  const actualStatus = {
    description: 'The real status of a 4xx answered as 200 (override-error-status mode).',
    schema: { type: 'string', pattern: '^4[0-9][0-9]$' },
  };
  for (const [, , operation] of operationsOf(document)) {
    const responses = operation.responses ?? {};
    const bodies = new Map<string, Json[]>();
    for (const [status, declared] of Object.entries(responses)) {
      if (!/^4/.test(status)) continue;
      const content = (resolveResponse(document, declared).content ?? {}) as Record<string, Json>;
      for (const [mediaType, media] of Object.entries(content)) {
        bodies.set(mediaType, [...(bodies.get(mediaType) ?? []), (media.schema ?? {}) as Json]);
      }
    }
    if (bodies.size === 0) continue;
    const success = structuredClone(resolveResponse(document, responses['200'] ?? { description: 'No 200 but an overridden 4xx.' }));
    const content = (success.content ?? {}) as Record<string, Json>;
    for (const [mediaType, schemas] of bodies) {
      const own = content[mediaType]?.schema as Json | undefined;
      // anyOf, not oneOf: a loose success schema may also match an error body.
      content[mediaType] = { ...content[mediaType], schema: { anyOf: [...(own ? [own] : []), ...schemas] } };
    }
    success.content = content;
    success.headers = { ...(success.headers as Json | undefined), 'X-Stack-Actual-Status': actualStatus };
    success.description = `${String(success.description)} Or, with X-Stack-Override-Error-Status, a 4xx answered as 200.`;
    responses['200'] = success;
    operation.responses = responses;
  }
}
