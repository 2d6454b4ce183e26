import { describe, expect, it } from 'vitest'
import { createOidcClients } from '../../../src/hub/features/oidc/clients.js'
import { createLogger } from '../../../src/shared/logging.js'
import { registerTasksClient } from '../../../src/tasks/web/hub-client-registration.js'
import { databasesUnderTest, useDatabase } from '../../helpers/databases.js'

describe.each(databasesUnderTest())('npm start registering the task manager with the hub, on $name', (database) => {
  const handle = useDatabase(database)
  const logger = createLogger('silent')

  it('registers a public first-party client with its callback, signed-out page and back-channel logout URI, once', async () => {
    const clients = createOidcClients(handle.current.db)
    await registerTasksClient(handle.current.db, { appId: 'tasks', publicUrl: 'http://localhost:3000' }, logger)
    await registerTasksClient(handle.current.db, { appId: 'tasks', publicUrl: 'http://localhost:3000' }, logger)
    expect(await clients.list()).toEqual([
      expect.objectContaining({
        id: 'tasks',
        redirectUris: ['http://localhost:3000/auth/callback'],
        postLogoutRedirectUris: ['http://localhost:3000/auth/signed-out'],
        backchannelLogoutUri: 'http://localhost:3000/auth/backchannel-logout',
        public: true,
        firstParty: true
      })
    ])
    expect(await clients.metadataOf('tasks')).toMatchObject({ token_endpoint_auth_method: 'none', backchannel_logout_session_required: true })
  })

  it('replaces the registration when TASKS_PUBLIC_URL changed', async () => {
    await registerTasksClient(handle.current.db, { appId: 'tasks', publicUrl: 'https://tasks.example.org' }, logger)
    const client = await createOidcClients(handle.current.db).find('tasks')
    expect(client?.redirectUris).toEqual(['https://tasks.example.org/auth/callback'])
  })
})
