import { describe, expect, it } from 'vitest'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { pageCookies, signUpAndLogIn, useHubApp } from '../../../helpers/hub-app.js'

/** The export page names the applications an export asks, in the page's language. */
describe('the export page and the applications', () => {
  const [database] = databasesUnderTest()
  const withApplications = useHubApp(database!, {
    config: { appNames: { tasks: 'Tasks', notes: 'Family notes' }, appExports: { tasks: 'http://127.0.0.1:9/export/hearth', notes: 'http://127.0.0.1:9/export' } }
  })
  const without = useHubApp(database!)

  const exportPage = async (app: typeof without.app, language: string) => {
    const user = await signUpAndLogIn(app)
    const response = await app.inject({ method: 'GET', url: '/export', headers: pageCookies(user, { lang: language }) })
    expect(response.statusCode).toBe(200)
    return response.body
  }

  it('lists what the applications keep, naming them and what happens to one that does not answer', async () => {
    expect(await exportPage(withApplications.app, 'en')).toContain(
      "<li>What the family's applications keep about you, such as your tasks (Tasks, Family notes); one that does not answer within 5 seconds is named as unavailable</li>"
    )
    expect(await exportPage(withApplications.app, 'es')).toContain('<li>Lo que las aplicaciones de la familia guardan sobre ti, como tus tareas (Tasks, Family notes);')
  })

  it('says nothing of applications when none is asked', async () => {
    expect(await exportPage(without.app, 'en')).not.toContain("family's applications")
  })
})
