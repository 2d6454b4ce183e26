import { afterAll, beforeAll } from 'vitest'
import { openKeyring } from '../../src/hub/kernel/tokens/keyring.js'
import type { HubConfig } from '../../src/shared/config.js'
import type { App } from '../../src/shared/http/server.js'
import { TASKS_SECURITY_EVENTS_PATH } from '../../src/shared/security-events/security-event-token.js'
import type { DatabaseUnderTest, TestDatabase } from './databases.js'
import { type TestHubOptions, buildTestHubApp } from './hub-app.js'
import { keysOf } from './security-events.js'
import { freePort } from './server-process.js'
import { buildTestTasksApp } from './tasks-app.js'

/** The events endpoint of a task manager listening on loopback at `port`. */
export function tasksEventsUrl(port: number): string {
  return `http://127.0.0.1:${port}${TASKS_SECURITY_EVENTS_PATH}`
}

/** HUB_APPS with the task manager taking events at `port`. */
export function appsWithEventsAt(port: number): Pick<HubConfig, 'apps' | 'appEvents'> {
  return { apps: { tasks: `http://127.0.0.1:${port}` }, appEvents: { tasks: tasksEventsUrl(port) } }
}

/**
 * A task manager on a database of its own, listening on loopback as a separate process would,
 * verifying the hub's events against the keys the hub keeps in `hubDataDir`.
 */
export async function startTasksApp(tasksHandle: TestDatabase, hubDataDir: string, port?: number): Promise<{ app: App; port: number }> {
  const listenOn = port ?? (await freePort())
  const keyring = await openKeyring({ signingKey: undefined, dataDir: hubDataDir, now: new Date() })
  const app = await buildTestTasksApp(tasksHandle.db, { hubKeys: keysOf(keyring), config: { allowedHosts: ['localhost', `127.0.0.1:${listenOn}`] } })
  await app.listen({ host: '127.0.0.1', port: listenOn })
  return { app, port: listenOn }
}

/**
 * The family as two processes would run it: a hub and a task manager, each on its own database,
 * the hub pushing its security events to the task manager over HTTP. For the suite around the call;
 * `hubOptions` may be a function, read when the suite starts (after earlier beforeAll hooks).
 */
export function useFamilyApps(database: DatabaseUnderTest, hubOptions: TestHubOptions | (() => TestHubOptions) = {}) {
  const family = {} as { hubHandle: TestDatabase; tasksHandle: TestDatabase; hub: App; tasks: App; tasksPort: number }
  beforeAll(async () => {
    family.hubHandle = await database.open()
    family.tasksHandle = await database.open()
    family.tasksPort = await freePort()
    const options = typeof hubOptions === 'function' ? hubOptions() : hubOptions
    family.hub = await buildTestHubApp(family.hubHandle, {
      securityEventSenderIntervalMs: 50,
      ...options,
      config: { ...appsWithEventsAt(family.tasksPort), ...options.config }
    })
    family.tasks = (await startTasksApp(family.tasksHandle, family.hubHandle.dataDir, family.tasksPort)).app
  })
  afterAll(async () => {
    await family.hub?.close()
    await family.tasks?.close()
    await family.hubHandle?.destroy()
    await family.tasksHandle?.destroy()
  })
  return family
}
