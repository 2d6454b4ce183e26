import { describe, expect, it } from 'vitest'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { type SignedIn, TASKS_ORIGIN, signUpAndLogIn, useHubApp } from '../../../helpers/hub-app.js'

const DEFAULTS = {
  dataSharing: { tasks: false },
  cookies: { necessary: true, functional: false, analytics: false, marketing: false },
  retention: { activityLogDays: 365 },
  visibility: { profile: 'private' },
  updatedAt: null
}

describe.each(databasesUnderTest())('privacy settings over HTTP on $name', (database) => {
  const hub = useHubApp(database, { rateLimits: { signupsPerIp: { limit: 10_000, windowMs: 60_000 } } })

  const get = (user: SignedIn) => hub.app.inject({ method: 'GET', url: '/api/privacy/settings', headers: user.headers })
  const put = (user: SignedIn, payload: unknown) =>
    hub.app.inject({ method: 'PUT', url: '/api/privacy/settings', headers: user.headers, payload: payload as object })

  it('gives a user who never saved the whole document of defaults', async () => {
    const user = await signUpAndLogIn(hub.app)
    const response = await get(user)
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual(DEFAULTS)
  })

  it('merges a partial PUT per group, keeps the other groups and answers the whole document', async () => {
    const user = await signUpAndLogIn(hub.app)
    const first = await put(user, { cookies: { analytics: true } })
    expect(first.statusCode).toBe(200)
    const firstBody = first.json<{ updatedAt: string }>()
    expect(firstBody).toEqual({ ...DEFAULTS, cookies: { ...DEFAULTS.cookies, analytics: true }, updatedAt: expect.any(String) })
    expect(new Date(firstBody.updatedAt).toISOString()).toBe(firstBody.updatedAt)

    const second = await put(user, { cookies: { functional: true }, visibility: { profile: 'family' }, dataSharing: { tasks: true } })
    expect(second.statusCode).toBe(200)
    const expected = {
      dataSharing: { tasks: true },
      cookies: { necessary: true, functional: true, analytics: true, marketing: false },
      retention: { activityLogDays: 365 },
      visibility: { profile: 'family' },
      updatedAt: expect.any(String)
    }
    expect(second.json()).toEqual(expected)
    expect((await get(user)).json()).toEqual(second.json())

    const third = await put(user, { retention: { activityLogDays: 30 } })
    expect(third.json()).toEqual({ ...expected, retention: { activityLogDays: 30 } })
  })

  it('accepts the retention bounds and necessary: true', async () => {
    const user = await signUpAndLogIn(hub.app)
    expect((await put(user, { retention: { activityLogDays: 3650 }, cookies: { necessary: true } })).statusCode).toBe(200)
    expect((await put(user, { retention: { activityLogDays: 30 } })).json()).toMatchObject({ retention: { activityLogDays: 30 } })
  })

  it.each([
    ['an unknown top-level key', { theme: 'dark' }, /theme/],
    ['an unknown key in a group', { cookies: { tracking: true } }, /Cookies.*tracking/],
    ['an unknown application', { dataSharing: { billing: true } }, /billing/],
    ['a wrong type', { cookies: { analytics: 'yes' } }, /Cookies\.analytics must be a boolean/],
    ['a group of the wrong type', { visibility: 'public' }, /Visibility must be an object/],
    ['a retention under 30 days', { retention: { activityLogDays: 29 } }, /Retention\.activityLogDays must be at least 30/],
    ['a retention over 3650 days', { retention: { activityLogDays: 3651 } }, /Retention\.activityLogDays must be at most 3650/],
    ['a fractional retention', { retention: { activityLogDays: 30.5 } }, /Retention\.activityLogDays must be an integer/],
    ['a retention as text', { retention: { activityLogDays: '90' } }, /Retention\.activityLogDays must be an integer/],
    ['an unknown visibility', { visibility: { profile: 'friends' } }, /Visibility\.profile must be one of: private, family, public/],
    ['necessary cookies turned off', { cookies: { necessary: false } }, /Cookies\.necessary/],
    ['a valid group beside a wrong one', { cookies: { analytics: true }, retention: { activityLogDays: 10 } }, /Retention\.activityLogDays/]
  ])('refuses %s with 400 naming the field, saving nothing', async (_, payload, message) => {
    const user = await signUpAndLogIn(hub.app)
    const response = await put(user, payload)
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ error: expect.stringMatching(message) })
    expect((await get(user)).json()).toEqual(DEFAULTS)
    const consents = await hub.app.inject({ method: 'GET', url: '/api/privacy/consent', headers: user.headers })
    expect(consents.json()).toEqual({ consents: [], current: {} })
  })

  it('keeps each user’s settings to that user', async () => {
    const [ada, bob] = [await signUpAndLogIn(hub.app), await signUpAndLogIn(hub.app)]
    await put(ada, { visibility: { profile: 'public' } })
    expect((await get(bob)).json()).toEqual(DEFAULTS)
  })

  it('loses no group when many PUTs of different groups race', async () => {
    const user = await signUpAndLogIn(hub.app)
    const patches = [
      { cookies: { functional: true } },
      { cookies: { analytics: true } },
      { cookies: { marketing: true } },
      { dataSharing: { tasks: true } },
      { retention: { activityLogDays: 90 } },
      { visibility: { profile: 'public' } }
    ]
    for (let round = 0; round < 3; round += 1) {
      const responses = await Promise.all(
        patches.map((patch) => put(user, patch))
      )
      expect(responses.map((response) => response.statusCode)).toEqual(patches.map(() => 200))
    }
    expect((await get(user)).json()).toEqual({
      dataSharing: { tasks: true },
      cookies: { necessary: true, functional: true, analytics: true, marketing: true },
      retention: { activityLogDays: 90 },
      visibility: { profile: 'public' },
      updatedAt: expect.any(String)
    })
    // One consent record per linked flag change, however the PUTs interleaved.
    const consents = (await hub.app.inject({ method: 'GET', url: '/api/privacy/consent', headers: user.headers })).json<{
      consents: { purpose: string }[]
    }>()
    expect(consents.consents.map(({ purpose }) => purpose).sort()).toEqual(['analytics', 'data-sharing:tasks', 'functional', 'marketing'])
  })

  it('is answered for a request from an allowed origin too', async () => {
    const user = await signUpAndLogIn(hub.app)
    const response = await hub.app.inject({
      method: 'GET',
      url: '/api/privacy/settings',
      headers: { ...user.headers, origin: TASKS_ORIGIN }
    })
    expect(response.statusCode).toBe(200)
  })
})
