import type { OpenApiDocument, OperationObject, ParameterObject } from './openapi-document.ts';
import { listOperations } from './spec-walk.ts';

/**
 * The project-authentication headers in terms every OpenAPI tool reads: the credentials become the
 * security schemes of `components.securitySchemes` (openapi/components/security-schemes.yaml), and
 * each operation gets the `security` its access extensions mean, instead of 28 optional header
 * parameters (14 `X-Stack-*`, 14 `X-Hexclave-*`) that no generator, gateway or validator can read as
 * credentials. The paths files keep listing the whole header set (`*projectAuthHeaders`, so the spec
 * test can check every authenticated operation takes it); the bundle keeps only the `X-Stack-`
 * spelling of the headers that are not credentials, their `X-Hexclave-` twin named in their
 * description once. The server reads headers itself (request-context), never from the spec.
 */
export function describeSecurity(doc: OpenApiDocument): void {
  const parameters = doc.components.parameters;
  const dropped = new Set(
    Object.keys(parameters)
      .filter(isAuthHeader)
      .map((key) => `#/components/parameters/${key}`),
  );
  for (const [key, parameter] of Object.entries(parameters)) {
    if (isAuthHeader(key)) delete parameters[key];
    else if (key.startsWith('Stack') && parameter.in === 'header') {
      parameter.description =
        `${parameter.description ?? ''} Also accepted as \`${parameter.name.replace(/^X-Stack-/, 'X-Hexclave-')}\`.`.trim();
    }
  }
  const keep = (list: Array<ParameterObject | { $ref: string }> | undefined) =>
    list?.filter((parameter) => !('$ref' in parameter && dropped.has(parameter.$ref)));
  for (const item of Object.values(doc.paths)) {
    const pathLevel = keep(item.parameters);
    if (pathLevel && pathLevel.length > 0) item.parameters = pathLevel as ParameterObject[];
    else delete item.parameters;
  }
  for (const { operation } of listOperations(doc)) {
    const own = keep(operation.parameters);
    if (own && own.length > 0) operation.parameters = own as ParameterObject[];
    else delete operation.parameters;
    operation.security ??= securityOf(operation);
  }
  // Outgoing webhooks are requests Gatehouse makes: the receiver checks their signature headers, not a credential of ours.
  for (const item of Object.values(doc.webhooks ?? {})) {
    for (const operation of Object.values(item)) operation.security ??= [];
  }
}

/** Header parameters (component keys) the bundle leaves out: every `X-Hexclave-` twin, and the credentials. */
export const isAuthHeader = (key: string): boolean => key.startsWith('Hexclave') || credentialHeaders.has(key);

/** The credential headers: component keys of openapi/components/parameters/headers.yaml that become schemes. */
const credentialHeaders = new Set([
  'StackProjectId',
  'StackAccessType',
  'StackPublishableClientKey',
  'StackSecretServerKey',
  'StackSuperSecretAdminKey',
  'StackAdminAccessToken',
  'StackAccessToken',
  'StackRefreshToken',
]);

type Requirement = Record<string, string[]>;

/** Each key kind's credentials; `admin` takes the super secret admin key or an admin access token. */
const keyKinds: Record<'client' | 'server' | 'admin', string[][]> = {
  client: [['PublishableClientKey']],
  server: [['SecretServerKey']],
  admin: [['SuperSecretAdminKey'], ['AdminAccessToken']],
};

/**
 * The alternatives an operation accepts (OpenAPI: any one requirement of the list, every scheme of
 * it together): per allowed access type, the project id, the access type and that kind's key; with
 * the user's access token when a user is required (`x-user: required`), or with and without it
 * otherwise; the refresh token in its place for operations that work on the session itself
 * (`x-session: refresh-token`). `x-auth: none` is no security; `x-auth: optional` adds "none".
 */
export function securityOf(operation: OperationObject): Requirement[] {
  if (operation['x-auth'] === 'none') return [];
  const accessTypes = operation['x-access-types'] ?? ['client', 'server', 'admin'];
  const userToken = operation['x-session'] === 'refresh-token' ? 'RefreshToken' : 'AccessToken';
  const userRequired = operation['x-user'] === 'required' || operation['x-session'] === 'refresh-token';
  const requirements: Requirement[] = operation['x-auth'] === 'optional' ? [{}] : [];
  for (const accessType of accessTypes) {
    for (const key of keyKinds[accessType]) {
      const base = ['ProjectId', 'AccessType', ...key];
      if (!userRequired) requirements.push(requirementOf(base));
      requirements.push(requirementOf([...base, userToken]));
    }
  }
  return requirements;
}

const requirementOf = (schemes: string[]): Requirement => Object.fromEntries(schemes.map((scheme) => [scheme, []]));
