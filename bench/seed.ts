import { AUTH_COOKIE, CSRF_COOKIE, CSRF_HEADER } from '../src/hub/kernel/http/cookies.js'
import { LIST_USER, SEEDED_TASK_COUNT } from './scenarios.js'

/** Creates the list user's tasks through the API and checks the list returns exactly those. */
export async function seedListUser(baseUrl: string): Promise<void> {
  const headers = { 'x-user-id': LIST_USER, 'content-type': 'application/json' }
  for (let index = 1; index <= SEEDED_TASK_COUNT; index++) {
    const response = await fetch(`${baseUrl}/tasks`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ title: `Seeded task ${index}`, description: 'Created by the benchmark' })
    })
    if (response.status !== 201) throw new Error(`seeding task ${index} answered ${response.status}`)
  }
  const list = await fetch(`${baseUrl}/tasks`, { headers })
  const page = (await list.json()) as { tasks?: unknown[] }
  if (list.status !== 200 || page.tasks?.length !== SEEDED_TASK_COUNT) {
    throw new Error(`after seeding, GET /tasks answered ${list.status} with ${page.tasks?.length} tasks`)
  }
}

const HUB_USER = { email: 'bench-user@example.org', password: 'bench user password, long enough' }

/**
 * Signs a new hub account up and in, and returns what a browser then sends with every API call:
 * the auth and CSRF cookies, and the CSRF token again in its header.
 */
export async function signInHubUser(baseUrl: string): Promise<Record<string, string>> {
  const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(HUB_USER) }
  const signup = await fetch(`${baseUrl}/api/auth/signup`, init)
  if (signup.status !== 200) throw new Error(`hub sign-up answered ${signup.status}`)
  const login = await fetch(`${baseUrl}/api/auth/login`, init)
  if (login.status !== 200) throw new Error(`hub login answered ${login.status}`)
  const cookies = new Map(
    login.headers.getSetCookie().map((cookie) => {
      const pair = cookie.split(';', 1)[0] ?? ''
      return [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)] as const
    })
  )
  const csrfToken = cookies.get(CSRF_COOKIE)
  if (!cookies.has(AUTH_COOKIE) || csrfToken === undefined) throw new Error('hub login set no auth or CSRF cookie')
  return { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '), [CSRF_HEADER]: csrfToken }
}
