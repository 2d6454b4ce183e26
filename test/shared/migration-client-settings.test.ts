import type { Kysely } from 'kysely'
import { describe, expect, it } from 'vitest'
import { down, up } from '../../src/shared/database/migrations/0058-client-settings.js'
import { databasesUnderTest, useDatabase } from '../helpers/databases.js'

describe.each(databasesUnderTest())('migration 0058 (client settings) on $name', (database) => {
  const handle = useDatabase(database)

  it('keeps every client registered before as it was: EdDSA, PKCE required, Basic for a confidential client, none for a public one, no logo', async () => {
    const { db } = handle.current
    const untyped = db as unknown as Kysely<unknown>
    await down(untyped)
    const client = (id: string, secretHash: string | null) => ({
      id,
      name: id,
      secretHash,
      redirectUris: '["https://a.example/cb"]',
      postLogoutRedirectUris: '[]',
      backchannelLogoutUri: null,
      firstParty: 0,
      createdAt: '2030-01-01T00:00:00.000Z'
    })
    // The table as it was before the migration: without its columns (hence the cast).
    await db
      .insertInto('oidcClients')
      .values([client('old-server', 'sha256:x'), client('old-spa', null)] as never)
      .execute()
    await up(untyped)
    const rows = await db.selectFrom('oidcClients').select(['id', 'idTokenAlg', 'pkce', 'authMethod', 'logoUrl']).orderBy('id').execute()
    expect(rows).toEqual([
      { id: 'old-server', idTokenAlg: 'EdDSA', pkce: 'required', authMethod: 'client_secret_basic', logoUrl: null },
      { id: 'old-spa', idTokenAlg: 'EdDSA', pkce: 'required', authMethod: 'none', logoUrl: null }
    ])
    await db.deleteFrom('oidcClients').execute()
  })
})
