import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { displayPrefix, generateApiKey, hashApiKey } from '../../src/auth/api-key-format';

export interface InsertedKey {
  id: string;
  key: string;
}

/**
 * Stores keys with SQL, as `keys:create` would, on one connection: faster than a CLI process per
 * key when a test needs many. A server started afterwards loads them.
 */
export async function insertApiKeys(
  databaseUrl: string,
  keys: Array<{ name: string; rpm: number; monthlyQuota: number }>,
): Promise<InsertedKey[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const created = keys.map((spec) => ({ ...spec, id: randomUUID(), key: generateApiKey() }));
    for (const k of created) {
      await client.query(
        `INSERT INTO api_keys (id, name, key_hash, prefix, rpm, monthly_quota, disabled)
         VALUES ($1, $2, $3, $4, $5, $6, false)`,
        [k.id, k.name, hashApiKey(k.key), displayPrefix(k.key), k.rpm, k.monthlyQuota],
      );
    }
    return created.map(({ id, key }) => ({ id, key }));
  } finally {
    await client.end();
  }
}
