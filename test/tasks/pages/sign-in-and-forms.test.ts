import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../../src/shared/http/server.js'
import { freePort } from '../../helpers/server-process.js'
import { databasesUnderTest } from '../../helpers/databases.js'
import { uniqueEmail } from '../../helpers/hub-app.js'
import { CookieBrowser, useHubOnPort } from '../../helpers/oidc-relying-party.js'
import { TEST_TASKS_CONFIG, buildTestTasksApp } from '../../helpers/tasks-app.js'
import { registerTasksClient } from '../../../src/tasks/web/hub-client-registration.js'
import { createLogger } from '../../../src/shared/logging.js'
import { remoteHubKeys } from '../../../src/shared/sso/token-verifier.js'

/** Long enough for the hub's background round (every 2 s) to send its back-channel logouts. */
const ROUND_MS = 10_000

describe.each(databasesUnderTest())('The task manager’s pages, signed in through the hub, on $name', { timeout: 60_000 }, (database) => {
  const hub = useHubOnPort(database)
  let tasks: App
  let origin: string

  beforeAll(async () => {
    const port = await freePort()
    origin = `http://127.0.0.1:${port}`
    const config = { ...TEST_TASKS_CONFIG, publicUrl: origin, hubIssuer: hub.issuer, allowedHosts: [`127.0.0.1:${port}`] }
    await registerTasksClient(hub.handle.db, config, createLogger('silent'))
    tasks = await buildTestTasksApp(hub.handle.db, { config, hubKeys: remoteHubKeys(new URL(`${hub.issuer}/.well-known/jwks.json`)) })
    await tasks.listen({ port, host: '127.0.0.1' })
  })
  afterAll(() => tasks?.close())

  /** One browser for both services, as on one host: cookies by name, redirects followed across both. */
  const visit = async (browser: CookieBrowser, url: string, init: RequestInit = {}) => {
    let next = new URL(url, origin)
    let response = await browser.request(next.href, init)
    for (let hops = 0; hops < 20 && response.status >= 300 && response.status < 400; hops++) {
      next = new URL(response.headers.get('location') ?? '', next)
      // A browser sends its own headers (Accept-Language) on every request; the body stays with the POST.
      response = await browser.request(next.href, { headers: { ...(init.method === 'POST' ? {} : (init.headers as Record<string, string>)) } })
    }
    return { url: next, status: response.status, html: await response.text(), headers: response.headers }
  }
  const csrfOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? ''
  const submit = (browser: CookieBrowser, path: string, fields: Record<string, string>) =>
    visit(browser, path, { method: 'POST', body: new URLSearchParams(fields).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } })

  /** Signs up at the hub, then opens the task manager: signed in without typing anything. */
  const signedInPerson = async (headers: Record<string, string> = {}) => {
    const browser = new CookieBrowser(hub.issuer)
    const userId = await browser.signUpAndIn(uniqueEmail('tasks-pages'))
    // The hub's sign-in writes the account's language to the shared cookie; these tests choose by header.
    browser.cookies.delete('lang')
    const list = await visit(browser, '/', { headers })
    expect(list.status, list.html).toBe(200)
    return { browser, userId, list, csrf: csrfOf(list.html) }
  }

  it('sends a person who is not signed in to the hub, and back to the page they asked for', async () => {
    const browser = new CookieBrowser(hub.issuer)
    const first = await browser.request(`${origin}/?status=completed`)
    expect(first.status).toBe(303)
    expect(first.headers.get('location')).toBe('/auth/sign-in?next=%2F%3Fstatus%3Dcompleted')
    const toHub = await browser.request(new URL(first.headers.get('location') ?? '', origin).href)
    const authorization = new URL(toHub.headers.get('location') ?? '')
    expect(authorization.origin + authorization.pathname).toBe(`${hub.issuer}/oidc/auth`)
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256')
    expect(authorization.searchParams.get('redirect_uri')).toBe(`${origin}/auth/callback`)
    expect(toHub.headers.get('set-cookie')).toMatch(/tasks-sign-in=.*Path=\/auth\/callback.*HttpOnly.*SameSite=Lax/i)

    await browser.signUpAndIn(uniqueEmail('tasks-pages'))
    const landed = await visit(browser, authorization.href)
    expect(landed.url.href).toBe(`${origin}/?status=completed`)
    expect(landed.status).toBe(200)
  })

  it('signs a person signed in at the hub in without a form, with an HttpOnly tasks-session cookie', async () => {
    const { browser, list } = await signedInPerson()
    expect(list.html).toContain('<h1>Your tasks</h1>')
    const nonce = /script-src 'nonce-([^']+)'/.exec(list.headers.get('content-security-policy') ?? '')?.[1] ?? ''
    expect(list.headers.get('content-security-policy')).toBe(
      `default-src 'none'; script-src 'nonce-${nonce}'; connect-src 'self'; style-src 'self'; img-src 'self'; form-action 'self' ${hub.issuer}; frame-ancestors 'none'; base-uri 'none'`
    )
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/)
    expect(list.headers.get('cache-control')).toBe('no-store')
    // One script: the bundle, by its hashed name and this response's nonce; nothing inline, no handlers.
    const scriptSrc = /<script type="module" src="([^"]+)"/.exec(list.html)?.[1] ?? ''
    expect(scriptSrc).toMatch(/^\/assets\/tasks-[A-Z0-9]+\.js$/)
    expect([...list.html.matchAll(/<script[^>]*>/g)].map(([tag]) => tag)).toEqual([`<script type="module" src="${scriptSrc}" nonce="${nonce}">`])
    expect(list.html).not.toMatch(/\son[a-z]+=/i)
    expect((await browser.request(`${origin}${scriptSrc}`)).headers.get('content-type')).toContain('text/javascript')
    expect(browser.cookies.get('tasks-session')).toBeTruthy()
    const stylesheet = await browser.request(`${origin}${/<link rel="stylesheet" href="([^"]+)"/.exec(list.html)?.[1] ?? ''}`)
    expect(stylesheet.headers.get('content-type')).toContain('text/css')
    // Each page its own nonce; a response that is no page admits no script at all.
    expect((await visit(browser, '/')).headers.get('content-security-policy')).not.toContain(nonce)
    expect(stylesheet.headers.get('content-security-policy')).toContain("script-src 'none'")
  })

  it('refuses a forged or unknown session cookie: back to sign-in', async () => {
    const { browser } = await signedInPerson()
    const [token = '', mac = ''] = (browser.cookies.get('tasks-session') ?? '').split('.')
    for (const forged of [`${token}x.${mac}`, `${token}.${mac.slice(1)}`, 'nonsense']) {
      const response = await fetch(`${origin}/`, { redirect: 'manual', headers: { cookie: `tasks-session=${forged}` } })
      expect(response.status).toBe(303)
    }
  })

  it('adds, edits, completes and deletes a task through forms, newest first', async () => {
    const { browser, userId, csrf } = await signedInPerson()
    const added = await submit(browser, '/pages/tasks', { _csrf: csrf, title: 'Water the plants', description: 'Both balconies' })
    expect(added.url.href).toBe(`${origin}/?notice=created`)
    expect(added.html).toContain('Task added.')
    await submit(browser, '/pages/tasks', { _csrf: csrf, title: 'Buy bread' })
    const listed = await visit(browser, '/')
    expect(listed.html.indexOf('Buy bread')).toBeLessThan(listed.html.indexOf('Water the plants'))

    // The API sees the same tasks, and the page's cookie is no credential there.
    const api = await fetch(`${origin}/tasks`, { headers: { 'x-user-id': userId, host: new URL(origin).host } })
    const { tasks: stored } = (await api.json()) as { tasks: { id: string; title: string; description: string; status: string }[] }
    const plants = stored.find((task) => task.title === 'Water the plants')
    expect(plants).toMatchObject({ description: 'Both balconies', status: 'pending' })
    expect((await fetch(`${origin}/tasks`, { headers: { cookie: browser.cookieHeader() } })).status).toBe(401)

    const editPage = await visit(browser, `/pages/tasks/${plants?.id}/edit`)
    expect(editPage.html).toContain('value="Water the plants"')
    const edited = await submit(browser, `/pages/tasks/${plants?.id}`, { _csrf: csrf, title: 'Water the garden', description: '' })
    expect(edited.html).toContain('Task saved.')
    expect(edited.html).toContain('Water the garden')

    const completed = await submit(browser, `/pages/tasks/${plants?.id}/status`, { _csrf: csrf, status: 'completed', back: '/?status=completed' })
    // Back to the same list, which says what changed (the confirmation without a script) and shows the status in words.
    expect(completed.url.href).toBe(`${origin}/?status=completed&notice=status&task=${plants?.id}`)
    expect(completed.html).toContain('<p class="notice" role="status">Status of “Water the garden” set to: Completed.</p>')
    expect(completed.html).toContain('<p class="task-status" data-status="completed">Status: <strong>Completed</strong></p>')
    expect(completed.html).not.toContain('Buy bread')
    expect(completed.html).toMatch(/aria-pressed="true"[^>]*>Completed/)
    // The status forms of that page come back to it without the notice.
    expect(completed.html).toContain('<input type="hidden" name="back" value="/?status=completed"/>')
    const spanish = await visit(browser, `/?notice=status&task=${plants?.id}`, { headers: { 'accept-language': 'es' } })
    expect(spanish.html).toContain('Estado de «Water the garden» cambiado a: Completada.')
    // A notice about a task that is not there (or not this person's) says nothing.
    expect((await visit(browser, '/?notice=status&task=00000000-0000-4000-8000-000000000000')).html).not.toContain('class="notice"')

    const confirm = await visit(browser, `/pages/tasks/${plants?.id}/delete`)
    expect(confirm.html).toContain('“Water the garden” will be deleted.')
    const deleted = await submit(browser, `/pages/tasks/${plants?.id}/delete`, { _csrf: csrf })
    expect(deleted.html).toContain('Task deleted.')
    expect(deleted.html).not.toContain('Water the garden')
  })

  it('keeps what was typed and says why when a title is blank or a text is not text', async () => {
    const { browser, csrf } = await signedInPerson()
    const blank = await submit(browser, '/pages/tasks', { _csrf: csrf, title: '   ', description: 'kept' })
    expect(blank.status).toBe(400)
    expect(blank.html).toContain('Give the task a title.')
    expect(blank.html).toContain('>kept</textarea>')
    const control = await submit(browser, '/pages/tasks', { _csrf: csrf, title: 'bell\u0007' })
    expect(control.status).toBe(400)
    expect(control.html).toContain('holds characters that are not text')
  })

  it('refuses a form without the session’s CSRF token with 403, and changes nothing', async () => {
    const { browser, csrf } = await signedInPerson()
    const other = await signedInPerson()
    for (const token of ['', 'forged.token', other.csrf]) {
      const refused = await submit(browser, '/pages/tasks', { _csrf: token, title: 'Sneaky' })
      expect(refused.status).toBe(403)
      expect(refused.html).toContain('This form has expired')
    }
    // The cookie is the other half: a matching field from another browser is not enough.
    const crossSite = await fetch(`${origin}/pages/tasks`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: `tasks-session=${browser.cookies.get('tasks-session')}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf, title: 'Sneaky' }).toString()
    })
    expect(crossSite.status).toBe(403)
    expect((await visit(browser, '/')).html).not.toContain('Sneaky')
  })

  it('shows another person’s task as not found', async () => {
    const owner = await signedInPerson()
    await submit(owner.browser, '/pages/tasks', { _csrf: owner.csrf, title: 'Mine only' })
    const id = /\/pages\/tasks\/([0-9a-f-]{36})\/edit/.exec((await visit(owner.browser, '/')).html)?.[1]
    const stranger = await signedInPerson()
    const seen = await visit(stranger.browser, `/pages/tasks/${id}/edit`)
    expect(seen.status).toBe(404)
    expect(seen.html).toContain('That task does not exist, or is not yours.')
    expect((await submit(stranger.browser, `/pages/tasks/${id}/delete`, { _csrf: stranger.csrf })).status).toBe(404)
    expect((await visit(owner.browser, '/')).html).toContain('Mine only')
  })

  it('pages through the list with a cursor, 20 to a page', async () => {
    const { browser, csrf } = await signedInPerson()
    for (let index = 1; index <= 21; index++) await submit(browser, '/pages/tasks', { _csrf: csrf, title: `Task number ${index}.` })
    const first = await visit(browser, '/')
    expect(first.html).toContain('Task number 21.')
    expect(first.html).not.toContain('Task number 1.')
    const older = /href="(\/\?cursor=[^"]+)">Older tasks/.exec(first.html)?.[1] ?? ''
    const second = await visit(browser, older.replace(/&amp;/g, '&'))
    expect(second.html).toContain('Task number 1.')
    expect(second.html).not.toContain('Task number 2.')
    expect(second.html).toContain('Newest tasks')
  })

  it('speaks Spanish from Accept-Language, and the language switch sets the shared lang cookie', async () => {
    const { browser, list } = await signedInPerson({ 'accept-language': 'es-MX,es;q=0.9' })
    expect(list.html).toContain('<html lang="es">')
    expect(list.html).toContain('<h1>Tus tareas</h1>')
    const switched = await visit(browser, '/language?lang=en&next=%2F%3Fstatus%3Dpending')
    expect(switched.url.href).toBe(`${origin}/?status=pending`)
    expect(browser.cookies.get('lang')).toBe('en')
    expect(switched.html).toContain('<html lang="en">')
  })

  it('signing out in the task manager ends its session and signs out of the hub too', async () => {
    const { browser, csrf } = await signedInPerson()
    const first = await browser.request(`${origin}/auth/sign-out`, {
      method: 'POST',
      body: new URLSearchParams({ _csrf: csrf }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' }
    })
    const endSession = new URL(first.headers.get('location') ?? '')
    expect(endSession.origin + endSession.pathname).toBe(`${hub.issuer}/oidc/session/end`)
    expect(endSession.searchParams.get('post_logout_redirect_uri')).toBe(`${origin}/auth/signed-out`)
    expect(browser.cookies.has('tasks-session')).toBe(false)

    const confirm = await browser.follow(endSession.href)
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(confirm.page?.html ?? '')?.[1] ?? ''
    const { left } = await browser.postForm(`${hub.issuer}/oidc/session/end/confirm`, { xsrf, logout: 'yes' })
    expect(left?.href).toBe(`${origin}/auth/signed-out`)
    expect((await visit(browser, left?.href ?? '')).html).toContain('You are signed out of the task manager and of Hearth.')
    expect((await browser.request(`${hub.issuer}/api/account/sessions`)).status).toBe(401)
  })

  it('a sign-out without the form’s token is refused and the session stays', async () => {
    const { browser } = await signedInPerson()
    const refused = await submit(browser, '/auth/sign-out', { _csrf: 'wrong' })
    expect(refused.status).toBe(403)
    expect((await visit(browser, '/')).status).toBe(200)
  })

  it('signing out of the hub ends the task manager’s session through the back-channel logout', async () => {
    const { browser } = await signedInPerson()
    const signOut = await browser.request(`${hub.issuer}/api/auth/refresh`, { method: 'DELETE', headers: { 'x-csrf-token': browser.cookies.get('service-csrf-token') ?? '' } })
    expect(signOut.status).toBe(204)
    const deadline = Date.now() + ROUND_MS
    let status = 200
    while (status === 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250))
      status = (await browser.request(`${origin}/`)).status
    }
    expect(status).toBe(303)
  })

  it('refuses a back-channel logout that is not the hub’s logout token with 400', async () => {
    const post = (body: string) => fetch(`${origin}/auth/backchannel-logout`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body })
    const missing = await post('')
    expect(missing.status).toBe(400)
    expect(await missing.json()).toEqual({ error: 'logout_token is required' })
    const forged = await post(new URLSearchParams({ logout_token: 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.' }).toString())
    expect(forged.status).toBe(400)
    expect(await forged.json()).toEqual({ error: 'The logout token is not valid' })
  })
})
