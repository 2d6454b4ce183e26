import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { chromiumUnderTest, keepScreenshots, keyboardWalk, launchChromium, recordCspViolations, seriousAccessibilityViolations } from '../../helpers/browser.js'
import { GOOD_PASSWORD } from '../../helpers/hub-app.js'
import { type ServerProcess, freePort, startBuilt } from '../../helpers/server-process.js'

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
  let dataDir: string
  const cspViolations: string[] = []
  const email = `tasks-browser-${process.pid}@example.com`

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-tasks-browser-'))
    const [hubPort, tasksPort] = [await freePort(), await freePort()]
    const hubUrl = `http://127.0.0.1:${hubPort}`
    const tasksUrl = `http://127.0.0.1:${tasksPort}`
    const shared = { DATA_DIR: dataDir, HUB_PUBLIC_URL: hubUrl, TASKS_PUBLIC_URL: tasksUrl }
    hub = await startBuilt('dist/src/hub/main.js', { ...shared, PORT: String(hubPort), HUB_PORT: String(hubPort), HUB_APPS: `tasks=${tasksUrl}` }, '/api/health')
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
    tasks = await startBuilt('dist/src/tasks/main.js', { ...shared, PORT: String(tasksPort) })
    browser = await launchChromium()
    context = await browser.newContext({ baseURL: hub.url, locale: 'en-US' })
    page = await context.newPage()
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
    onTestFailed(() => keepScreenshots(browser.contexts().flatMap((open) => open.pages()), task.name))
  })
  afterEach(() => {
    expect(cspViolations).toEqual([])
  })

  const expectAccessible = async () => {
    expect(await seriousAccessibilityViolations(page), page.url()).toEqual([])
    expect(await keyboardWalk(page), page.url()).toEqual({ unreached: [], withoutFocusOutline: [] })
  }
  const heading = () => page.getByRole('heading', { level: 1 }).textContent()

  /** One task's round trip through the pages, in the page's language. */
  const roundTrip = async (words: Record<'title' | 'description' | 'add' | 'added' | 'edit' | 'save' | 'saved' | 'done' | 'delete' | 'confirm' | 'deleted', string>, title: string, renamed: string) => {
    await page.getByLabel(words.title).fill(title)
    await page.getByLabel(words.description).fill('On the balcony')
    await page.getByRole('button', { name: words.add }).click()
    await page.getByText(words.added).waitFor()
    expect(await page.getByRole('heading', { level: 3, name: title }).count()).toBe(1)
    await expectAccessible()

    await page.getByRole('link', { name: `${words.edit}: ${title}` }).click()
    await page.getByLabel(words.title).fill(renamed)
    await page.getByRole('button', { name: words.save }).click()
    await page.getByText(words.saved).waitFor()

    const statusForm = page.getByRole('form', { name: new RegExp(renamed) })
    await statusForm.getByRole('button', { name: words.done }).click()
    await statusForm.locator('button[aria-pressed="true"]', { hasText: words.done }).waitFor()

    await page.getByRole('link', { name: `${words.delete}: ${renamed}` }).click()
    await expectAccessible()
    await page.getByRole('button', { name: words.confirm }).click()
    await page.getByText(words.deleted).waitFor()
    expect(await page.getByRole('heading', { level: 3, name: renamed }).count()).toBe(0)
  }

  it('signs up at the hub and opens the task manager from the dashboard, signed in without typing', async () => {
    await page.goto('/signup')
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password').fill(GOOD_PASSWORD)
    await page.getByRole('button', { name: 'Create account' }).click()
    await page.waitForURL('**/dashboard')
    await page.getByRole('link', { name: 'Open tasks' }).click()
    await page.waitForURL(`${tasks.url}/`)
    expect(await heading()).toBe('Your tasks')
    await expectAccessible()
  })

  it('creates, edits, completes and deletes a task in English', async () => {
    await roundTrip(
      { title: 'Title', description: 'Description (optional)', add: 'Add task', added: 'Task added.', edit: 'Edit', save: 'Save', saved: 'Task saved.', done: 'Completed', delete: 'Delete', confirm: 'Delete task', deleted: 'Task deleted.' },
      'Water the plants',
      'Water the garden'
    )
  })

  it('does the same in Spanish after the language switch', async () => {
    await page.getByRole('button', { name: 'Español' }).click()
    await page.waitForSelector('html[lang="es"]')
    expect(await heading()).toBe('Tus tareas')
    await roundTrip(
      { title: 'Título', description: 'Descripción (opcional)', add: 'Añadir tarea', added: 'Tarea añadida.', edit: 'Editar', save: 'Guardar', saved: 'Tarea guardada.', done: 'Completada', delete: 'Eliminar', confirm: 'Eliminar tarea', deleted: 'Tarea eliminada.' },
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
