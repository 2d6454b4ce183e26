import { describe, expect, it } from 'vitest'
import { buildTasksApp } from '../../src/tasks/app.js'
import { capturedLog } from '../helpers/captured-log.js'
import { databasesUnderTest, useDatabase } from '../helpers/databases.js'
import { TEST_TASKS_CONFIG } from '../helpers/tasks-app.js'

describe.each(databasesUnderTest())('request log on $name', (database) => {
  const handle = useDatabase(database)

  it('writes one line per task request and none for a successful health probe', async () => {
    const log = capturedLog('info')
    const app = await buildTasksApp({ config: TEST_TASKS_CONFIG, db: handle.current.db, logger: log.logger })
    await app.inject({ url: '/health' })
    await app.inject({ url: '/tasks', headers: { 'x-user-id': 'logged-user' } })
    await app.inject({ url: '/tasks' })
    await app.close()

    const completed = log.lines.filter((line) => line.msg === 'request completed')
    expect(completed.map((line) => [line.path, line.statusCode])).toEqual([
      ['/tasks', 200],
      ['/tasks', 401]
    ])
    expect(completed.every((line) => typeof line.requestId === 'string')).toBe(true)
  })
})
