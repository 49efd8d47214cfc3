import type { CustomerType } from './catalogue.ts';

/** Who owns items and products: a user, a team, or one of the project's own ids (`custom`). */
export type Customer = { type: CustomerType; id: string };
