import { describe, expect, it } from 'vitest';
import { expectError } from '@gatehouse/testing/expect-response';
import { withTestContext } from '@gatehouse/testing/test-context';
import { dataVaultDecryptionFailedMessage, sealForDataVault } from './data-vault.ts';
import { createServerApp } from './server-app.ts';

/**
 * The data vault through the server SDK against the real server: a round trip, null for a missing
 * key, the wrong-secret message, the two catalogued errors, and a database row that holds neither
 * the plaintext nor the client's ciphertext.
 */
const env = withTestContext({ listen: true, projectConfig: { 'dataVault.stores': { 'tax-ids': { displayName: 'Tax ids' } } } });
const serverApp = () =>
  createServerApp({ baseUrl: env.baseUrl, projectId: env.project.project.id, secretServerKey: env.project.keys.secret_server_key });
const call = (url: string, payload: object, headers: Record<string, string> = env.project.headers.server) =>
  env.context.request({ method: 'POST', url: `/api/v1${url}`, headers, payload });

describe('the data vault', () => {
  it('round-trips a value through the SDK; a missing key reads as null; another secret cannot read it', async () => {
    const store = serverApp().dataVault.getStore('tax-ids');
    expect(await store.getValue('user-1', { secret: 'vault secret' })).toBeNull();
    await store.setValue('user-1', 'DE-123456789', { secret: 'vault secret' });
    expect(await store.getValue('user-1', { secret: 'vault secret' })).toBe('DE-123456789');
    await store.setValue('user-1', 'DE-987654321', { secret: 'vault secret' });
    expect(await store.getValue('user-1', { secret: 'vault secret' })).toBe('DE-987654321');
    // Another key is another value; another secret hashes the key elsewhere (null), and cannot decrypt a stolen value.
    expect(await store.getValue('user-2', { secret: 'vault secret' })).toBeNull();
    expect(await store.getValue('user-1', { secret: 'other secret' })).toBeNull();
    const { hashedKey } = await sealForDataVault('vault secret', 'user-1');
    const stolen = await call('/data-vault/stores/tax-ids/get', { hashed_key: hashedKey });
    expect(stolen.status).toBe(200);
    const { openFromDataVault } = await import('./data-vault.ts');
    await expect(openFromDataVault('other secret', 'user-1', stolen.body.encrypted_value)).rejects.toThrow(
      dataVaultDecryptionFailedMessage,
    );
    expect(dataVaultDecryptionFailedMessage).toBe(
      "Data vault client-side decryption failed. Are you sure you're using the correct secret?",
    );
  });

  it('stores neither the plaintext nor the client ciphertext: a dump reveals neither', async () => {
    const { hashedKey, encryptedValue } = await sealForDataVault('dump secret', 'card', 'plain-4242-4242');
    expect(
      (await call('/data-vault/stores/tax-ids/set', { hashed_key: hashedKey, encrypted_value: encryptedValue as string })).body,
    ).toEqual({
      success: true,
    });
    const rows = await env.context.database.db
      .selectFrom('data_vault_entry')
      .selectAll()
      .where('project_id', '=', env.project.project.id)
      .execute();
    const dump = JSON.stringify(rows);
    expect(rows.length).toBeGreaterThan(0);
    for (const secretPart of ['plain-4242-4242', encryptedValue as string, hashedKey]) expect(dump).not.toContain(secretPart);
    expect((await call('/data-vault/stores/tax-ids/get', { hashed_key: hashedKey })).body).toEqual({ encrypted_value: encryptedValue });
    // Another project with the same store and hashed key sees nothing.
    const other = await env.context.createProject({ 'dataVault.stores': { 'tax-ids': { displayName: 'Tax ids' } } });
    expectError(
      await call('/data-vault/stores/tax-ids/get', { hashed_key: hashedKey }, other.headers.server),
      400,
      'DATA_VAULT_STORE_HASHED_KEY_DOES_NOT_EXIST',
    );
  });

  it('answers the catalogued errors', async () => {
    expectError(await call('/data-vault/stores/nope/get', { hashed_key: 'k' }), 400, 'DATA_VAULT_STORE_DOES_NOT_EXIST', {
      store_id: 'nope',
    });
    expectError(
      await call('/data-vault/stores/nope/set', { hashed_key: 'k', encrypted_value: 'v' }),
      400,
      'DATA_VAULT_STORE_DOES_NOT_EXIST',
      {
        store_id: 'nope',
      },
    );
    expectError(
      await call('/data-vault/stores/tax-ids/get', { hashed_key: 'never-set' }),
      400,
      'DATA_VAULT_STORE_HASHED_KEY_DOES_NOT_EXIST',
      {
        store_id: 'tax-ids',
        hashed_key: 'never-set',
      },
    );
    expectError(await call('/data-vault/stores/tax-ids/get', { hashed_key: '' }), 400, 'SCHEMA_ERROR');
    // Server access or above only; the admin key works too.
    expectError(
      await call('/data-vault/stores/tax-ids/get', { hashed_key: 'k' }, env.project.headers.client),
      401,
      'INSUFFICIENT_ACCESS_TYPE',
    );
    expect(
      (await call('/data-vault/stores/tax-ids/set', { hashed_key: 'k', encrypted_value: 'v' }, env.project.headers.admin)).status,
    ).toBe(200);
  });
});
