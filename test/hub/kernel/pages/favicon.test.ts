import { describe, expect, it } from 'vitest'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { hubAppPerSuite, pageCookies, signUpAndLogIn } from '../../../helpers/hub-app.js'

/** The icon every page links, made in the repository and served by the hub under the pages' CSP. */
describe('the hub’s icon', () => {
  const [database] = databasesUnderTest()
  const suite = hubAppPerSuite(database!)

  it('is an SVG at /favicon.svg, kept a day', async () => {
    const response = await suite.app.inject({ method: 'GET', url: '/favicon.svg' })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toBe('image/svg+xml; charset=utf-8')
    expect(response.headers['cache-control']).toBe('public, max-age=86400')
    expect(response.body).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 32 32">.*<\/svg>\n$/s)
  })

  it('answers /favicon.ico, which browsers ask for by themselves, with no content instead of a 404', async () => {
    const response = await suite.app.inject({ method: 'GET', url: '/favicon.ico' })
    expect(response.statusCode).toBe(204)
    expect(response.body).toBe('')
  })

  it('is linked from every page’s head, which the page’s CSP lets load (same origin)', async () => {
    const user = await signUpAndLogIn(suite.app)
    for (const [url, headers] of [
      ['/login', {}],
      ['/signup', {}],
      ['/dashboard', pageCookies(user)],
      ['/account/security', pageCookies(user)]
    ] as const) {
      const response = await suite.app.inject({ method: 'GET', url, headers })
      expect(response.body, url).toMatch(/<head>.*<link rel="icon" href="\/favicon\.svg" type="image\/svg\+xml"\/>.*<\/head>/s)
      expect(response.headers['content-security-policy'], url).toMatch(/img-src 'self'/)
    }
  })
})
