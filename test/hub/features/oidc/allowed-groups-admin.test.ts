import { beforeAll, describe, expect, it } from 'vitest'
import { createGroups } from '../../../../src/hub/features/groups/service.js'
import { signUpAdministrator } from '../../../helpers/administrators.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { type SignedIn, useHubApp } from '../../../helpers/hub-app.js'

const CLIENTS = '/api/admin/clients'
const CALLBACK = 'https://grafana.example/login/generic_oauth'
const OPERATOR = { record: async () => {} }

describe.each(databasesUnderTest())('allowedGroups in the applications’ admin API, on $name', (database) => {
  const hub = useHubApp(database)
  let admin: SignedIn
  beforeAll(async () => {
    admin = await signUpAdministrator(hub.app, hub.handle.db)
    const groups = createGroups(hub.handle.db, () => new Date())
    await groups.create({ name: 'Family' }, OPERATOR)
    await groups.create({ name: 'admins' }, OPERATOR)
  })
  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) => hub.app.inject({ method, url, headers: admin.headers, ...(payload ? { payload } : {}) })

  it('registers a client limited to groups named in any case, answered by their names; none given, everyone may', async () => {
    const added = await call('POST', CLIENTS, { clientId: 'grafana', name: 'Grafana', redirectUris: [CALLBACK], allowedGroups: ['family', 'ADMINS'] })
    expect(added.statusCode, added.body).toBe(201)
    expect(added.json()).toMatchObject({ clientId: 'grafana', allowedGroups: ['admins', 'Family'], limitedToGroups: true })
    expect((await call('GET', `${CLIENTS}/grafana`)).json()).toMatchObject({ allowedGroups: ['admins', 'Family'], limitedToGroups: true })

    const open = await call('POST', CLIENTS, { clientId: 'wiki', redirectUris: ['https://wiki.example/cb'] })
    expect(open.json()).toMatchObject({ allowedGroups: [], limitedToGroups: false })
    const listed = (await call('GET', CLIENTS)).json<{ clients: { clientId: string; allowedGroups: string[] }[] }>().clients
    expect(listed.find((client) => client.clientId === 'grafana')?.allowedGroups).toEqual(['admins', 'Family'])
  })

  it('replaces the groups with PATCH, recorded as a change; [] opens it to everyone', async () => {
    await call('POST', CLIENTS, { clientId: 'immich', redirectUris: ['https://photos.example/cb'] })
    const limited = await call('PATCH', `${CLIENTS}/immich`, { allowedGroups: ['Family'] })
    expect(limited.statusCode, limited.body).toBe(200)
    expect(limited.json()).toMatchObject({ allowedGroups: ['Family'], limitedToGroups: true })
    const event = await hub.handle.db.selectFrom('auditEvents').select('detail').where('userId', '=', admin.userId).where('type', '=', 'client.changed').orderBy('createdAt', 'desc').executeTakeFirstOrThrow()
    expect(JSON.parse(event.detail ?? '{}')).toMatchObject({ clientId: 'immich', changed: ['allowedGroups'] })

    const unchanged = await call('PATCH', `${CLIENTS}/immich`, { name: 'Immich' })
    expect(unchanged.json()).toMatchObject({ name: 'Immich', allowedGroups: ['Family'] })
    const opened = await call('PATCH', `${CLIENTS}/immich`, { allowedGroups: [] })
    expect(opened.json()).toMatchObject({ allowedGroups: [], limitedToGroups: false })
  })

  it('answers 400 naming a group no group has, and changes nothing', async () => {
    const refused = await call('POST', CLIENTS, { clientId: 'jellyfin', redirectUris: ['https://tv.example/cb'], allowedGroups: ['family', 'kids', 'guests'] })
    expect(refused.statusCode).toBe(400)
    expect(refused.json()).toEqual({ error: 'No group is named "kids", "guests": make it first (groups:add or the console\'s Groups)' })
    expect((await call('GET', `${CLIENTS}/jellyfin`)).statusCode).toBe(404)

    await call('POST', CLIENTS, { clientId: 'gitea', redirectUris: ['https://git.example/cb'], allowedGroups: ['admins'] })
    const patch = await call('PATCH', `${CLIENTS}/gitea`, { allowedGroups: ['nope'] })
    expect(patch.statusCode).toBe(400)
    expect(patch.json()).toEqual({ error: 'No group is named "nope": make it first (groups:add or the console\'s Groups)' })
    expect((await call('GET', `${CLIENTS}/gitea`)).json()).toMatchObject({ allowedGroups: ['admins'] })
  })
})
