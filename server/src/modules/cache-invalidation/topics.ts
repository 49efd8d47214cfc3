/** A project's cached row (key: the project id). */
export const projectTopic = 'project';
/** A project's key sets (key: the project id). */
export const apiKeySetsTopic = 'api-key-sets';
/** The verified access tokens of a project (key: the project id). */
export const verifiedTokensTopic = 'verified-tokens';
