import type { operations } from './generated/api-types.ts';
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

type ContentOf<Response> = Response extends { content: infer Content }
  ? Content extends { 'application/json': infer Json }
    ? Json
    : Content extends { 'text/plain': infer Text }
      ? Text
      : undefined
  : undefined;
type Responses<Id extends OperationName> = Operation<Id>['responses'];

/** The body of the operation's success (200/201) response. */
export type OperationResult<Id extends OperationName> = {
  [Status in keyof Responses<Id>]: Status extends 200 | 201 ? ContentOf<Responses<Id>[Status]> : never;
}[keyof Responses<Id>];
