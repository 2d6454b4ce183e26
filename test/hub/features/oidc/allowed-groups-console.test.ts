import { beforeAll, describe, expect, it } from 'vitest'
import { createGroups } from '../../../../src/hub/features/groups/service.js'
import { createOidcClients } from '../../../../src/hub/features/oidc/clients.js'
import { postForm, signUpAdministrator } from '../../../helpers/administrators.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { type SignedIn, pageCookies, useHubApp } from '../../../helpers/hub-app.js'

const SECTION = '/admin/applications'
const CALLBACK = 'https://grafana.example/login/generic_oauth'
const OPERATOR = { record: async () => {} }

describe.each(databasesUnderTest())('groups on the console’s application forms, on $name', (database) => {
  const hub = useHubApp(database)
  let admin: SignedIn
  beforeAll(async () => {
    admin = await signUpAdministrator(hub.app, hub.handle.db)
  })
  const page = (url: string, others: Record<string, string> = {}) => hub.app.inject({ url, headers: pageCookies(admin, others) })
  const clients = () => createOidcClients(hub.handle.db)

  it('says there are no groups yet, then offers a checkbox for each group', async () => {
    expect((await page(SECTION)).body).toContain('There are no groups yet, so everyone with an account may use it.')
    const groups = createGroups(hub.handle.db, () => new Date())
    await groups.create({ name: 'family' }, OPERATOR)
    await groups.create({ name: 'admins' }, OPERATOR)
    const shown = (await page(SECTION)).body
    expect(shown).toContain('<legend>Who may use it</legend>')
    expect(shown).toContain('<input type="checkbox" name="allowedGroups" value="admins"/>admins')
    expect(shown).toContain('<input type="checkbox" name="allowedGroups" value="family"/>family')
    expect((await page(SECTION, { lang: 'es' })).body).toContain('Quién puede usarla')
  })

  it('adds an application limited to the groups ticked, and shows who may use it', async () => {
    const added = await postForm(hub.app, admin, SECTION, { clientId: 'grafana', name: 'Grafana', redirectUris: CALLBACK, kind: 'public', allowedGroups: ['family', 'admins'] })
    expect(added.statusCode, added.body).toBe(303)
    expect(await clients().find('grafana')).toMatchObject({ allowedGroups: ['admins', 'family'], limitedToGroups: true })
    const shown = (await page(`${SECTION}/grafana`)).body
    expect(shown).toContain('Members of admins, family')
    expect(shown).toContain('<input type="checkbox" name="allowedGroups" value="family" checked/>family')
  })

  it('changes the groups from the settings form; none ticked opens it to everyone', async () => {
    const settings = { name: 'Grafana', redirectUris: CALLBACK, postLogoutRedirectUris: '', backchannelLogoutUri: '' }
    expect((await postForm(hub.app, admin, `${SECTION}/grafana`, { ...settings, allowedGroups: 'family' })).statusCode).toBe(303)
    expect((await clients().find('grafana'))?.allowedGroups).toEqual(['family'])
    const event = await hub.handle.db.selectFrom('auditEvents').select('detail').where('userId', '=', admin.userId).where('type', '=', 'client.changed').orderBy('createdAt', 'desc').executeTakeFirstOrThrow()
    expect(JSON.parse(event.detail ?? '{}')).toMatchObject({ changed: ['allowedGroups'] })

    expect((await postForm(hub.app, admin, `${SECTION}/grafana`, settings)).statusCode).toBe(303)
    expect(await clients().find('grafana')).toMatchObject({ allowedGroups: [], limitedToGroups: false })
    expect((await page(`${SECTION}/grafana`)).body).toContain('Everyone with an account')
  })

  it('keeps a client whose groups were all deleted closed when its other settings are saved, and says so', async () => {
    const groups = createGroups(hub.handle.db, () => new Date())
    const doomed = await groups.create({ name: 'doomed' }, OPERATOR)
    await clients().add({ id: 'proxmox', name: 'Proxmox', redirectUris: [CALLBACK], postLogoutRedirectUris: [], public: true, firstParty: false, allowedGroups: ['doomed'] }, new Date())
    await groups.remove(doomed.id, OPERATOR)
    expect((await page(`${SECTION}/proxmox`)).body).toContain('Nobody: every group it was limited to has been deleted.')
    const saved = await postForm(hub.app, admin, `${SECTION}/proxmox`, { name: 'Proxmox VE', redirectUris: CALLBACK, postLogoutRedirectUris: '', backchannelLogoutUri: '' })
    expect(saved.statusCode).toBe(303)
    expect(await clients().find('proxmox')).toMatchObject({ name: 'Proxmox VE', allowedGroups: [], limitedToGroups: true })
  })

  it('refuses a group that no longer exists with the page again, saying why in the page’s language', async () => {
    const refused = await postForm(hub.app, admin, SECTION, { clientId: 'gitea', redirectUris: 'https://git.example/cb', kind: 'public', allowedGroups: 'gone' })
    expect(refused.statusCode).toBe(400)
    expect(refused.body).toContain('No group is named gone.')
    expect(await clients().find('gitea')).toBeUndefined()
  })
})
