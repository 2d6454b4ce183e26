import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/shared/http/server.js'
import { type TestDatabase, databasesUnderTest } from '../helpers/databases.js'
import { buildTestTasksApp } from '../helpers/tasks-app.js'

const [sqlite] = databasesUnderTest()

describe('task manager API documentation', () => {
  let handle: TestDatabase
  let app: App
  beforeAll(async () => {
    handle = await sqlite!.open()
    app = await buildTestTasksApp(handle.db)
  })
  afterAll(async () => {
    await app.close()
    await handle.destroy()
  })

  it('serves OpenAPI 3.1 generated from the route schemas', async () => {
    const response = await app.inject({ url: '/openapi.json' })
    expect(response.statusCode).toBe(200)
    const document = response.json()
    expect(document.openapi).toBe('3.1.0')
    expect(Object.keys(document.paths).sort()).toEqual(['/events/hearth', '/export/hearth', '/health', '/ready', '/tasks', '/tasks/{taskId}'])
    expect(Object.keys(document.paths['/tasks/{taskId}']).sort()).toEqual(['delete', 'get', 'put'])
    const create = document.paths['/tasks'].post
    expect(create.requestBody.content['application/json'].schema.properties.title).toMatchObject({ type: 'string', maxLength: 500 })
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '500']))
    const list = document.paths['/tasks'].get
    expect(document.components.securitySchemes).toHaveProperty('ssoToken.scheme', 'bearer')
    expect(document.paths['/health'].get.security).toEqual([])
    expect(list.parameters.map((parameter: { name: string }) => parameter.name).sort()).toEqual(['cursor', 'limit', 'status'])
  })

  it('serves a docs page from its own files, with no CDN', async () => {
    const page = await app.inject({ url: '/docs/' })
    expect(page.statusCode).toBe(200)
    expect(page.headers['content-type']).toMatch(/text\/html/)
    expect(page.body).not.toMatch(/(src|href)="https?:\/\//)
    const script = await app.inject({ url: '/docs/static/swagger-ui-bundle.js' })
    expect(script.statusCode).toBe(200)
  })
})
