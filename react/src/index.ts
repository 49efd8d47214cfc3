export { apiMutator, setApiClient } from './api-mutator.ts';
export * from './generated/hooks.ts';
