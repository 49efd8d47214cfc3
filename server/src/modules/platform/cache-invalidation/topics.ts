/** A project's cached row (key: the project id). */
export const projectTopic = 'project';
/** A project's key sets (key: the project id). */
export const apiKeySetsTopic = 'api-key-sets';
/** A project's OpenID provider (its applications' scopes, settings, signing keys; key: the project id). */
export const oauthProvidersTopic = 'oauth-providers';
/** The verified access tokens of a project (key: the project id). */
export const verifiedTokensTopic = 'verified-tokens';
/** Webhook messages were queued (sent by the fan-out trigger, migration 0140; no key): the delivery workers wake. */
export const webhooksDueTopic = 'webhooks.due';
