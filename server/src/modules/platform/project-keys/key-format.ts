import { digestSecret } from '../../../lib/digest.ts';
import { randomBase32 } from '../../../lib/random.ts';

export const projectKeyKinds = ['publishable_client_key', 'secret_server_key', 'super_secret_admin_key'] as const;
export type ProjectKeyKind = (typeof projectKeyKinds)[number];

export const projectKeyPrefixes: Record<ProjectKeyKind, string> = {
  publishable_client_key: 'pck_',
  secret_server_key: 'ssk_',
  super_secret_admin_key: 'sak_',
};

export const generateProjectKey = (kind: ProjectKeyKind): string => projectKeyPrefixes[kind] + randomBase32(45);

/** Keys are 225 random bits: a SHA-256 digest is a safe verifier (see digestSecret). */
export const digestKey = digestSecret;

export const lastFour = (key: string): string => key.slice(-4);
