import { type JsonObject, isJsonObject, rejectConfig } from '../../../tenancy/config-input.ts';
import { isProviderType } from '../../authentication/oauth/index.ts';
import { isOidcProviderConfig, oidcProviderSettings, usesSharedKeys } from '../../authentication/oauth/index.ts';
import { builtInThemes } from '../../messaging/email/index.ts';
import { defaultProjectConfig, type ProjectConfig, unsafeKeySegments } from '../../../tenancy/project-config.ts';
import { parseCatalogue } from '../../billing/payments/index.ts';
import { assertValidPasswordPolicy, assertValidSignUpRules } from '../../authentication/sign-up-rules/index.ts';
import { assertValidBotChallenge } from '../../authentication/bot-challenges/index.ts';
import { assertValidClaimsTemplate } from '../../authentication/custom-claims/index.ts';
import { assertProductionReady } from './production-mode.ts';
import { findUnsafeInput } from '../../../routing/unsafe-input.ts';
import { assertValidDefaultLanguage } from '../../../tenancy/project-language.ts';

/** Sections that are records of entries (their defaults name entries, not settings): not walked into. */
const records = new Set(['rbac.defaultPermissions.teamCreator', 'rbac.defaultPermissions.teamMember', 'rbac.defaultPermissions.signUp']);

/** The settings whose values are a closed list. */
const choices: Record<string, readonly string[]> = {
  'sourceOfTruth.type': ['hosted'],
  'auth.oauth.accountMergeStrategy': ['link_method', 'raise_error', 'allow_duplicates'],
  'auth.signUpRulesDefaultAction': ['allow', 'reject'],
};

/** Settings without a default (absent means off) whose value, when given, is a boolean. */
const optionalFlags = [['auth', 'emailFirst']] as const;

/**
 * The rules a rendered config must follow; the first broken one is the answer (plain 400). The
 * messages are listed in the spec (updateProjectConfigOverride, ProjectConfigUpdate).
 */
export function assertValidConfig(projectId: string, config: ProjectConfig, isProductionMode: boolean): void {
  assertShape(defaultProjectConfig as unknown as JsonObject, config as unknown as JsonObject, '');
  for (const [section, flag] of optionalFlags) {
    const value = (config[section] as JsonObject)[flag];
    if (value !== undefined && typeof value !== 'boolean') rejectConfig(`${section}.${flag} must be true or false.`);
  }
  for (const [id, provider] of Object.entries(config.auth.oauth.providers)) assertValidProvider(id, provider);
  assertValidPasswordPolicy(config);
  assertValidBotChallenge(config);
  assertValidDefaultLanguage(config);
  assertValidSignUpRules(config);
  // Gatehouse's own: the access tokens' custom claims (absent by default).
  if (config.auth.customClaims !== undefined) assertValidClaimsTemplate(config.auth.customClaims);
  assertValidEmailServer(config.emails.server);
  for (const [id, domain] of Object.entries(config.domains.trustedDomains)) {
    if (!isJsonObject(domain)) rejectConfig(`domains.trustedDomains.${id} must be an object.`);
    assertValidDomain(domain.baseUrl);
    if (typeof domain.handlerPath !== 'string' || !domain.handlerPath.startsWith('/'))
      rejectConfig(`The handler path of ${domain.baseUrl} must start with "/".`);
  }
  const theme = config.emails.selectedThemeId;
  if (!Object.hasOwn(builtInThemes, theme) && !Object.hasOwn(config.emails.themes, theme))
    rejectConfig(`Email theme ${theme} does not exist.`);
  assertValidEmailContent(config.emails);
  parseCatalogue(config.payments);
  if (isProductionMode) assertProductionReady(projectId, config);
}

/** Every setting that has a default keeps its default's kind (a boolean stays a boolean, a section an object). */
function assertShape(defaults: JsonObject, rendered: JsonObject, prefix: string): void {
  for (const [key, fallback] of Object.entries(defaults)) {
    const path = `${prefix}${key}`;
    const value = rendered[key];
    const allowed = choices[path];
    if (allowed && !allowed.includes(value as string)) rejectConfig(`${path} must be one of ${allowed.join(', ')}.`);
    if (typeof fallback === 'boolean' && typeof value !== 'boolean') rejectConfig(`${path} must be true or false.`);
    if (typeof fallback === 'string' && typeof value !== 'string') rejectConfig(`${path} must be a string.`);
    if (isJsonObject(fallback)) {
      if (!isJsonObject(value)) rejectConfig(`${path} must be an object.`);
      if (!records.has(path)) assertShape(fallback, value as JsonObject, `${path}.`);
    }
  }
}

const providerFlags = ['isShared', 'allowSignIn', 'allowConnectedAccounts'] as const;
const providerTexts = ['type', 'clientId', 'clientSecret', 'facebookConfigId', 'microsoftTenantId', 'customCallbackUrl'] as const;

function assertValidProvider(id: string, provider: unknown): void {
  const path = `auth.oauth.providers.${id}`;
  if (!isJsonObject(provider)) rejectConfig(`${path} must be an object.`);
  for (const flag of providerFlags) {
    if (provider[flag] !== undefined && typeof provider[flag] !== 'boolean') rejectConfig(`${path}.${flag} must be true or false.`);
  }
  for (const text of providerTexts) {
    if (provider[text] !== undefined && typeof provider[text] !== 'string') rejectConfig(`${path}.${text} must be a string.`);
  }
  // Gatehouse's own: a project's own OpenID provider (OIDC_PROVIDER_CONFIG_INVALID when it cannot be used).
  if (isOidcProviderConfig(provider)) {
    oidcProviderSettings(id, provider);
    return;
  }
  const type = (provider.type as string | undefined) ?? id;
  if (!isProviderType(type)) rejectConfig(`OAuth provider ${id} has an unknown type "${type}".`);
  // Own keys: `isShared: false`, or no `isShared` and a client id (how sign-in reads it).
  if (!usesSharedKeys(provider)) {
    if (!provider.clientId) rejectConfig('Client ID is missing');
    if (!provider.clientSecret) rejectConfig('Client secret is missing');
  }
}

/**
 * Themes and templates are objects with a string `displayName` and `tsxSource`; a template's
 * `themeId` is `false` (no theme) or names a theme that exists (built in or in `emails.themes`).
 * Without this, one bad entry made every read of the templates fail (issue #30).
 */
function assertValidEmailContent(emails: ProjectConfig['emails']): void {
  const themes = emails.themes as Record<string, unknown>;
  for (const [kind, entries] of [
    ['themes', themes],
    ['templates', emails.templates as Record<string, unknown>],
  ] as const) {
    for (const [id, entry] of Object.entries(entries)) {
      const path = `emails.${kind}.${id}`;
      if (!isJsonObject(entry)) rejectConfig(`${path} must be an object.`);
      for (const field of ['displayName', 'tsxSource'])
        if (typeof entry[field] !== 'string') rejectConfig(`${path}.${field} must be a string.`);
      if (kind !== 'templates' || entry.themeId === undefined || entry.themeId === false) continue;
      const themeId = entry.themeId;
      if (typeof themeId !== 'string') rejectConfig(`${path}.themeId must be a theme id or false.`);
      const known = (id: string) => id.toLowerCase() === themeId.toLowerCase();
      if (!Object.keys(builtInThemes).some(known) && !Object.keys(themes).some(known))
        rejectConfig(`Email template ${id} uses theme ${themeId}, which does not exist.`);
    }
  }
}

const filled = (value: unknown): boolean => typeof value === 'string' && value.length > 0;

function assertValidEmailServer(server: ProjectConfig['emails']['server']): void {
  if (server.isShared !== false) return;
  if (!filled(server.host)) rejectConfig('Email host is missing');
  if (server.port === undefined || !Number.isInteger(server.port) || server.port < 0 || server.port > 65535)
    rejectConfig('Email port must be a number between 0 and 65535');
  if (!filled(server.username)) rejectConfig('Email username is missing');
  if (!filled(server.password)) rejectConfig('Email password is missing');
  if (!filled(server.senderName)) rejectConfig('Email sender name is missing');
  if (!filled(server.senderEmail)) rejectConfig('Email sender email is missing');
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(server.senderEmail as string)) rejectConfig('Email sender email is not a valid email');
}

/**
 * A trusted domain: an http(s) base URL of at most 300 characters whose host may hold wildcards
 * (`*` one label, `**` any number) but no leading, trailing or double dots; the port and path may not.
 */
export function assertValidDomain(domain: unknown): void {
  const text = typeof domain === 'string' ? domain : String(domain);
  const match = typeof domain === 'string' ? /^(https?):\/\/([^/:?#]+)(:[^/?#]*)?(\/[^?#]*)?$/i.exec(domain) : null;
  const host = match?.[2];
  if (!match || !host) rejectConfig(`Invalid domain "${text}": it must be an http or https URL.`);
  if (text.length > 300) rejectConfig(`Invalid domain "${text}": it may be at most 300 characters long.`);
  if (host.startsWith('.') || host.endsWith('.') || host.includes('..')) {
    rejectConfig(`Invalid domain "${text}": the host may not start or end with a dot or contain two dots in a row.`);
  }
  const [, , , port = '', path = ''] = match;
  if (port.includes('*') || path.includes('*')) rejectConfig(`Invalid domain "${text}": wildcards are allowed only in the host.`);
  if (port !== '' && !/^:\d{1,5}$/.test(port)) rejectConfig(`Invalid domain "${text}": the port must be a number.`);
  if (!/^[a-z0-9*.-]+$/i.test(host))
    rejectConfig(`Invalid domain "${text}": the host may hold only letters, digits, hyphens, dots and wildcards.`);
}

/** A config override must be a JSON object, with no key that reaches an object's prototype. */
export function parseOverride(text: string, field = 'config_override_string'): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return rejectConfig(`${field} is not valid JSON.`);
  }
  if (!isJsonObject(parsed)) return rejectConfig(`${field} must be a JSON object.`);
  // The string holds JSON the body's own checks never saw: 10 000 levels overflowed the stack (a 500).
  const unsafe = findUnsafeInput(parsed);
  if (unsafe) rejectConfig(`${field}${unsafe.instancePath} ${unsafe.message}.`);
  assertSafeKeys(parsed, field);
  return parsed;
}

function assertSafeKeys(value: unknown, field: string): void {
  if (Array.isArray(value)) for (const item of value) assertSafeKeys(item, field);
  if (!isJsonObject(value)) return;
  for (const [key, nested] of Object.entries(value)) {
    const unsafe = key.split('.').find((segment) => unsafeKeySegments.has(segment));
    if (unsafe !== undefined) rejectConfig(`${field} may not use the key "${unsafe}".`);
    assertSafeKeys(nested, field);
  }
}
