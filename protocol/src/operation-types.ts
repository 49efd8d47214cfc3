import type { components, operations } from './generated/api-types.ts';
import type { OperationName } from './generated/operations.ts';

/** Request and response types of an operation, read from the generated `operations` of the spec. */
type Operation<Id extends OperationName> = operations[Id];
type ParametersOf<Id extends OperationName> = Operation<Id> extends { parameters: infer P } ? P : never;
type Part<P, K extends string> = P extends { [key in K]?: infer V } ? ([V] extends [never] ? undefined : NonNullable<V>) : undefined;

export type OperationParams<Id extends OperationName> = Part<ParametersOf<Id>, 'path'>;
export type OperationQuery<Id extends OperationName> = Part<ParametersOf<Id>, 'query'>;
export type OperationBody<Id extends OperationName> =
  Operation<Id> extends { requestBody?: { content: infer Content } }
    ? Content extends { 'application/json': infer Json }
      ? Json
      : Content[keyof Content]
    : undefined;

/** The body of a response object of the spec: its JSON, else its plain text. */
export type ResponseContent<Response> = Response extends { content: infer Content }
  ? Content extends { 'application/json': infer Json }
    ? Json
    : Content extends { 'text/plain': infer Text }
      ? Text
      : undefined
  : undefined;
type Responses<Id extends OperationName> = Operation<Id>['responses'];

/** The body of the operation's success (200/201) response. */
export type OperationResult<Id extends OperationName> = {
  [Status in keyof Responses<Id>]: Status extends 200 | 201 ? ResponseContent<Responses<Id>[Status]> : never;
}[keyof Responses<Id>];

/** The body of one response of the operation: its JSON, else its plain text. */
export type OperationResponse<Id extends OperationName, Status extends keyof Responses<Id>> = ResponseContent<Responses<Id>[Status]>;

/** A schema of the spec by name: `Schema<'ServerUser'>`. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

/** An event of the project's event log as outgoing webhooks deliver it: `{ type, data }` (the spec's `WebhookEvent`). */
export type WebhookEvent = components['schemas']['WebhookEvent'];
/** The event types: `user.created`, `team_membership.deleted`, ... */
export type EventType = WebhookEvent['type'];
/** The payload (`data`) of one event type: `EventPayload<'user.created'>` is a `ServerUser`. */
export type EventPayload<Type extends EventType> = Extract<WebhookEvent, { type: Type }>['data'];

/** The run-time facts of one operation: a const of `@gatehouse/protocol/operations` (`signInWithPassword`). */
export type OperationDescriptor<Id extends OperationName = OperationName> = {
  readonly operationId: Id;
  readonly method: string;
  readonly path: string;
  readonly responseType: 'json' | 'text' | 'none';
  readonly bodyType?: string;
  readonly auth: string;
};
