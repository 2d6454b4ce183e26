import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  type RequestTrail,
  chromiumUnderTest,
  keepScreenshots,
  keyboardWalk,
  launchChromium,
  recordCspViolations,
  recordRequestTrail,
  seriousAccessibilityViolations,
  withWhereThePageIs
} from '../../helpers/browser.js'
import { GOOD_PASSWORD } from '../../helpers/hub-app.js'
import { type ServerProcess, answeredRequestsOf, freePort, startBuilt, warningsOf } from '../../helpers/server-process.js'

const withChromium = chromiumUnderTest()
const ROOT = path.resolve(import.meta.dirname, '../../..')

/**
 * The hub and the task manager as two processes on one database (run `npm run build` first), the
 * task manager registered with `clients:add` as the docs say, and a person going from one to the
 * other in Chromium.
 */
describe.skipIf(!withChromium)('the task manager’s pages in a browser, beside the hub', { timeout: 90_000 }, () => {
  let hub: ServerProcess
  let tasks: ServerProcess
  let browser: Browser
  let context: BrowserContext
  let page: Page
  let trail: RequestTrail
  let dataDir: string
  const cspViolations: string[] = []
  const email = `tasks-browser-${process.pid}@example.com`

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-tasks-browser-'))
    const [hubPort, tasksPort] = [await freePort(), await freePort()]
    const hubUrl = `http://127.0.0.1:${hubPort}`
    const tasksUrl = `http://127.0.0.1:${tasksPort}`
    const shared = { DATA_DIR: dataDir, HUB_PUBLIC_URL: hubUrl, TASKS_PUBLIC_URL: tasksUrl }
    hub = await startBuilt('dist/server/hub.js', { ...shared, PORT: String(hubPort), HUB_PORT: String(hubPort), HUB_APPS: `tasks=${tasksUrl}` }, '/api/health')
    // As docs/task-manager.md says for two processes: the task manager registered with clients:add.
    execFileSync(
      process.execPath,
      [
        'dist/src/cli/hub.js',
        ...['clients:add', '--id', 'tasks', '--name', 'Tasks', '--public', '--first-party'],
        ...['--redirect-uri', `${tasksUrl}/auth/callback`, '--post-logout-redirect-uri', `${tasksUrl}/auth/signed-out`],
        ...['--backchannel-logout-uri', `${tasksUrl}/auth/backchannel-logout`]
      ],
      { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...shared } }
    )
    tasks = await startBuilt('dist/server/tasks.js', { ...shared, PORT: String(tasksPort) })
    browser = await launchChromium()
    context = await browser.newContext({ baseURL: hub.url, locale: 'en-US' })
    page = await context.newPage()
    trail = recordRequestTrail(page)
    await recordCspViolations(page, cspViolations)
  })

  afterAll(async () => {
    await browser?.close()
    for (const server of [tasks, hub]) {
      server?.child.kill('SIGTERM')
      await server?.exited
    }
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  beforeEach(({ task, onTestFailed }) => {
    onTestFailed(async () => {
      await keepScreenshots(browser.contexts().flatMap((open) => open.pages()), task.name)
      for (const [name, server] of Object.entries({ hub, tasks })) console.error(`[${task.name}] the ${name}'s warnings:\n${warningsOf(server).slice(-4_000)}`)
    })
  })
  afterEach(() => {
    expect(cspViolations).toEqual([])
  })

  const expectAccessible = async () => {
    expect(await seriousAccessibilityViolations(page), page.url()).toEqual([])
    // Tab goes on from where focus last was; after the page script moved it into <main>, walk the
    // whole page from the top, as after a load.
    await page.evaluate(() => {
      document.body.tabIndex = -1
      document.body.focus()
      document.body.removeAttribute('tabindex')
    })
    expect(await keyboardWalk(page), page.url()).toEqual({ unreached: [], withoutFocusOutline: [] })
  }
  const heading = () => page.getByRole('heading', { level: 1 }).textContent()

  /** One task's round trip through the pages, in the page's language. */
  const roundTrip = async (
    words: Record<'title' | 'description' | 'add' | 'added' | 'edit' | 'save' | 'saved' | 'status' | 'done' | 'completedNotice' | 'delete' | 'confirm' | 'deleted', string>,
    title: string,
    renamed: string
  ) => {
    await page.getByLabel(words.title).fill(title)
    await page.getByLabel(words.description).fill('On the balcony')
    await page.getByRole('button', { name: words.add }).click()
    // In <main>: the page script also says the notice in its (hidden) live region.
    await page.getByRole('main').getByText(words.added).waitFor()
    expect(await page.getByRole('heading', { level: 3, name: title }).count()).toBe(1)
    await expectAccessible()

    await page.getByRole('link', { name: `${words.edit}: ${title}` }).click()
    // The page script swaps the edit form in: wait for it, the list's add form has a title field too.
    await page.getByRole('button', { name: words.save }).waitFor()
    await page.getByLabel(words.title).fill(renamed)
    await page.getByRole('button', { name: words.save }).click()
    await page.getByRole('main').getByText(words.saved).waitFor()

    const statusForm = page.getByRole('form', { name: new RegExp(renamed) })
    await statusForm.getByRole('button', { name: words.done }).click()
    await statusForm.locator('button[aria-pressed="true"]', { hasText: words.done }).waitFor()
    // Seen in words, not only heard as "pressed", and said in the live region.
    expect(await page.getByRole('article', { name: renamed }).locator('.task-status').textContent()).toBe(`${words.status} ${words.done}`)
    await expect.poll(() => page.locator('#page-announcer').textContent()).toBe(words.completedNotice)
    expect(await page.getByRole('main').getByRole('status').textContent()).toBe(words.completedNotice)

    await page.getByRole('link', { name: `${words.delete}: ${renamed}` }).click()
    await page.getByRole('button', { name: words.confirm }).waitFor()
    await expectAccessible()
    await page.getByRole('button', { name: words.confirm }).click()
    await page.getByRole('main').getByText(words.deleted).waitFor()
    expect(await page.getByRole('heading', { level: 3, name: renamed }).count()).toBe(0)
  }

  it('signs up at the hub and opens the task manager from the dashboard, signed in without typing', async () => {
    await page.goto('/signup')
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password').fill(GOOD_PASSWORD)
    await page.getByRole('button', { name: 'Create account' }).click()
    await page.waitForURL('**/dashboard')
    await page.getByRole('link', { name: 'Open Tasks' }).click()
    await page.waitForURL(`${tasks.url}/`)
    expect(await heading()).toBe('Your tasks')
    await expectAccessible()
  })

  it('creates, edits, completes and deletes a task in English', async () => {
    await roundTrip(
      {
        ...{ title: 'Title', description: 'Description (optional)', add: 'Add task', added: 'Task added.', edit: 'Edit', save: 'Save', saved: 'Task saved.' },
        ...{ status: 'Status:', done: 'Completed', completedNotice: 'Status of “Water the garden” set to: Completed.' },
        ...{ delete: 'Delete', confirm: 'Delete task', deleted: 'Task deleted.' }
      },
      'Water the plants',
      'Water the garden'
    )
  })

  it('with the page script, changes a status in place: no reload, focus kept, the change announced', async () => {
    await page.getByLabel('Title').fill('Sweep the porch')
    await page.getByRole('button', { name: 'Add task' }).click()
    await page.getByRole('main').getByText('Task added.').waitFor()
    // A page load would forget this; the list swapped in place keeps it.
    await page.evaluate(() => Object.assign(window, { sameDocument: true }))

    const statusForm = page.getByRole('form', { name: 'Status of “Sweep the porch”' })
    await statusForm.getByRole('button', { name: 'In progress' }).click()
    await statusForm.locator('button[aria-pressed="true"]', { hasText: 'In progress' }).waitFor()

    expect(await page.evaluate(() => ({ sameDocument: 'sameDocument' in window, loads: performance.getEntriesByType('navigation').length }))).toEqual({ sameDocument: true, loads: 1 })
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('In progress')
    await expect.poll(() => page.locator('#page-announcer').textContent()).toBe('Status of “Sweep the porch” set to: In progress.')
    expect(await page.getByRole('article', { name: 'Sweep the porch' }).locator('.task-status').textContent()).toBe('Status: In progress')
    await expectAccessible()

    // Deleting goes through the confirmation, in place too, and the address follows.
    await page.getByRole('link', { name: 'Delete: Sweep the porch' }).click()
    await page.getByRole('button', { name: 'Delete task' }).click()
    await page.getByRole('main').getByText('Task deleted.').waitFor()
    expect(await page.evaluate(() => 'sameDocument' in window)).toBe(true)
    expect(new URL(page.url()).search).toBe('?notice=deleted')
  })

  it('without the page script, a status change is a plain form: the next page shows the status in words and says what changed', async () => {
    await page.getByLabel('Title').fill('Mend the fence')
    await page.getByRole('button', { name: 'Add task' }).click()
    await page.getByRole('main').getByText('Task added.').waitFor()
    const noScript = await browser.newContext({ baseURL: tasks.url, locale: 'en-US', javaScriptEnabled: false, storageState: await context.storageState() })
    const tab = await noScript.newPage()
    await recordCspViolations(tab, cspViolations)
    await tab.goto('/?status=pending')
    const task = tab.getByRole('article', { name: 'Mend the fence' })
    expect(await task.locator('.task-status').textContent()).toBe('Status: Pending')
    await task.getByRole('button', { name: 'In progress' }).click()
    await tab.waitForURL(/\/\?status=pending&notice=status&task=/)
    // Filtered to pending, the task has left the list; the notice still names it.
    expect(await tab.getByRole('main').getByRole('status').textContent()).toBe('Status of “Mend the fence” set to: In progress.')
    expect(await tab.getByRole('article', { name: 'Mend the fence' }).count()).toBe(0)
    await tab.goto('/?status=in-progress')
    expect(await tab.getByRole('article', { name: 'Mend the fence' }).locator('.task-status').textContent()).toBe('Status: In progress')
    expect(await tab.getByRole('article', { name: 'Mend the fence' }).locator('button[aria-pressed="true"]').textContent()).toBe('In progress')
    await noScript.close()
  })

  // Failed on CI in two runs, never in dozens here: it may run a second time, from the task list,
  // and .ci/run prints the first failure of a test that passed on a retry, with where the page went.
  let handBackAttempts = 0
  it('hands a form back to the browser when its answer leaves the site: an ended session signs in at the hub again', { retry: 1 }, async () => {
    const title = `Fold the laundry ${++handBackAttempts}`
    await page.goto(`${tasks.url}/`)
    await page.getByLabel('Title').fill(title)
    await page.getByRole('button', { name: 'Add task' }).click()
    await page.getByRole('main').getByText('Task added.').waitFor()
    await page.evaluate(() => Object.assign(window, { sameDocument: true }))
    await context.clearCookies({ name: 'tasks-session' })

    const explainWhereThePageWent = async (error: unknown) => {
      const services = Object.entries({ hub, tasks }).map(
        ([name, server]) => `\nThe ${name}'s last answers:\n${answeredRequestsOf(server, 8)}\nIts warnings: ${warningsOf(server).slice(-1_000) || 'none'}`
      )
      throw await withWhereThePageIs(error, page, trail, services.join(''))
    }
    // The browser's own request: the script's fetch is refused at its redirect to the hub.
    const handedBack = page.waitForRequest((request) => request.isNavigationRequest() && request.url().startsWith(`${hub.url}/oidc/auth`))
    await page.getByRole('form', { name: `Status of “${title}”` }).getByRole('button', { name: 'Completed' }).click()
    await handedBack.catch(explainWhereThePageWent)
    await page.waitForURL(`${tasks.url}/`).catch(explainWhereThePageWent)
    expect(await heading()).toBe('Your tasks')
    expect(await page.evaluate(() => 'sameDocument' in window)).toBe(false)
  })

  it('does the same in Spanish after the language switch', async () => {
    await page.getByRole('button', { name: 'Español' }).click()
    await page.waitForSelector('html[lang="es"]')
    expect(await heading()).toBe('Tus tareas')
    await roundTrip(
      {
        ...{ title: 'Título', description: 'Descripción (opcional)', add: 'Añadir tarea', added: 'Tarea añadida.', edit: 'Editar', save: 'Guardar', saved: 'Tarea guardada.' },
        ...{ status: 'Estado:', done: 'Completada', completedNotice: 'Estado de «Regar el jardín» cambiado a: Completada.' },
        ...{ delete: 'Eliminar', confirm: 'Eliminar tarea', deleted: 'Tarea eliminada.' }
      },
      'Regar las plantas',
      'Regar el jardín'
    )
    await page.getByRole('button', { name: 'English' }).click()
    await page.waitForSelector('html[lang="en"]')
  })

  it('signing out in the task manager signs out of the hub too', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.waitForURL(`${hub.url}/oidc/session/end**`)
    await page.getByRole('main').getByRole('button', { name: 'Sign out', exact: true }).click()
    await page.waitForURL(`${tasks.url}/auth/signed-out`)
    expect(await heading()).toBe('Signed out')
    await expectAccessible()
    await page.goto('/dashboard')
    await page.waitForURL('**/login?next=%2Fdashboard')
  })

  it('signing out of the hub signs out of the task manager too', async () => {
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password').fill(GOOD_PASSWORD)
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await page.waitForURL('**/dashboard')
    await page.goto(`${tasks.url}/`)
    expect(await heading()).toBe('Your tasks')

    await page.goto('/dashboard')
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.waitForURL('**/login**')
    // The hub's background round sends the back-channel logout within seconds.
    await expect
      .poll(async () => {
        await page.goto(`${tasks.url}/`)
        return new URL(page.url()).pathname
      }, { timeout: 15_000, interval: 500 })
      .toBe('/login')
  })
})
