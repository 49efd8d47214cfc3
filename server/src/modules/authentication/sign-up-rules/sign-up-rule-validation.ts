import { SignUpRuleConditionInvalidError } from '@gatehouse/protocol/errors';
import { type JsonObject, isIntegerIn, isJsonObject, rejectConfig } from '../../../tenancy/config-input.ts';
import type { ProjectConfig } from '../../../tenancy/project-config.ts';
import { CelConditionError, compileCondition } from './cel-conditions.ts';
import { signUpRuleActions } from './sign-up-rules.ts';

/** The largest `action.serverMetadata`, as JSON text: a few labels for the new user, not a data store. */
export const maxRuleMetadataLength = 2048;

/** More rules than this is a config no dashboard makes, and each sign-up evaluates them all. */
export const maxSignUpRules = 100;

/**
 * The sign-up rules of a config about to be saved (the messages are listed in the spec,
 * updateProjectConfigOverride): their shape in plain 400s; a condition that does not parse or
 * type-check is SIGN_UP_RULE_CONDITION_INVALID with the rule and the position.
 */
export function assertValidSignUpRules(config: ProjectConfig): void {
  const rules = Object.entries(config.auth.signUpRules as JsonObject);
  if (rules.length > maxSignUpRules) rejectConfig(`auth.signUpRules may hold at most ${maxSignUpRules} rules.`);
  for (const [id, rule] of rules) {
    const path = `auth.signUpRules.${id}`;
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) rejectConfig(`${path}: a rule id is 1 to 64 letters, digits, underscores or hyphens.`);
    if (!isJsonObject(rule)) rejectConfig(`${path} must be an object.`);
    if (typeof rule.enabled !== 'boolean') rejectConfig(`${path}.enabled must be true or false.`);
    if (rule.displayName !== undefined && (typeof rule.displayName !== 'string' || rule.displayName.length > 200))
      rejectConfig(`${path}.displayName must be a string of at most 200 characters.`);
    if (!isIntegerIn(rule.priority, -1_000_000, 1_000_000))
      rejectConfig(`${path}.priority must be a whole number between -1000000 and 1000000.`);
    if (rule.condition !== undefined && typeof rule.condition !== 'string') rejectConfig(`${path}.condition must be a string.`);
    const action = rule.action;
    if (!isJsonObject(action) || !signUpRuleActions.includes(action.type as never))
      rejectConfig(`${path}.action.type must be one of ${signUpRuleActions.join(', ')}.`);
    if (action.message !== undefined && (typeof action.message !== 'string' || action.message.length > 500))
      rejectConfig(`${path}.action.message must be a string of at most 500 characters.`);
    if (action.serverMetadata !== undefined) assertValidRuleMetadata(path, action.type as string, action.serverMetadata);
    if (typeof rule.condition === 'string' && rule.condition.trim() !== '') assertValidCondition(id, rule.condition);
  }
}

/** Gatehouse's own `action.serverMetadata`: a JSON object of bounded size, on an action that creates a user. */
function assertValidRuleMetadata(path: string, actionType: string, metadata: unknown): void {
  if (!isJsonObject(metadata)) rejectConfig(`${path}.action.serverMetadata must be a JSON object.`);
  if (actionType === 'reject') rejectConfig(`${path}.action.serverMetadata cannot be set on a reject rule (no user is created).`);
  if (JSON.stringify(metadata).length > maxRuleMetadataLength)
    rejectConfig(`${path}.action.serverMetadata must be at most ${maxRuleMetadataLength} characters as JSON.`);
}

function assertValidCondition(ruleId: string, condition: string): void {
  try {
    compileCondition(condition);
  } catch (error) {
    if (!(error instanceof CelConditionError)) throw error;
    const message = `Sign-up rule ${ruleId}: ${error.message} (line ${error.position.line}, column ${error.position.column})`;
    throw new SignUpRuleConditionInvalidError({ rule_id: ruleId, message: error.message, position: error.position }, message);
  }
}

/** `auth.passwordPolicy`: whole-number bounds, min ≤ max. */
export function assertValidPasswordPolicy(config: ProjectConfig): void {
  const policy = config.auth.passwordPolicy as unknown as JsonObject;
  if (!isIntegerIn(policy.minLength, 8, 256)) rejectConfig('auth.passwordPolicy.minLength must be a whole number from 8 to 256.');
  if (!isIntegerIn(policy.maxLength, policy.minLength as number, 4096))
    rejectConfig('auth.passwordPolicy.maxLength must be a whole number from auth.passwordPolicy.minLength to 4096.');
}
