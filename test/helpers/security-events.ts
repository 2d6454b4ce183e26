import { randomUUID } from 'node:crypto'
import type { JWTVerifyGetKey } from 'jose'
import { afterAll, beforeAll, expect } from 'vitest'
import type { PendingSecurityEvent } from '../../src/hub/kernel/security-events/outbox.js'
import { signSecurityEvent } from '../../src/hub/kernel/security-events/security-event-token.js'
import { type Keyring, generateStoredKey, openKeyring } from '../../src/hub/kernel/tokens/keyring.js'
import type { App } from '../../src/shared/http/server.js'
import type { SecurityEventType } from '../../src/shared/security-events/security-event-token.js'
import type { TestDatabase } from './databases.js'
import { HUB_ORIGIN } from './hub-app.js'
import { buildTestTasksApp } from './tasks-app.js'

/** A keyring of one fresh key, as HUB_SIGNING_KEY would give it. */
export async function freshKeyring(): Promise<Keyring> {
  const { privateJwk } = await generateStoredKey(new Date())
  return openKeyring({ signingKey: JSON.stringify(privateJwk), dataDir: '/nonexistent', now: new Date() })
}

/** The key resolver an application verifies with, over a keyring's published keys. */
export function keysOf(keyring: Keyring): JWTVerifyGetKey {
  return (header, token) => keyring.verifier(new Date())(header, token)
}

/** A SET as the hub's sender signs it, for `userId`, addressed to the task manager. */
export function securityEventToken(
  keyring: Keyring,
  eventType: SecurityEventType,
  userId: string,
  options: { issuer?: string; audience?: string; jti?: string; at?: Date } = {}
): Promise<string> {
  const at = options.at ?? new Date()
  const event: PendingSecurityEvent = {
    id: options.jti ?? randomUUID(),
    applicationId: options.audience ?? 'tasks',
    eventType,
    userId,
    createdAt: at.toISOString(),
    attempts: 1,
    nextAttemptAt: at.toISOString(),
    lastError: null
  }
  return signSecurityEvent(keyring, options.issuer ?? HUB_ORIGIN, event, at)
}

/**
 * A task manager on the suite's database that trusts a keyring of the test's own as the hub's,
 * for the suite around the call: the test signs what the hub would send it.
 */
export function useTasksAppTrustingHub(handle: { readonly current: TestDatabase }) {
  const tasks = {} as { app: App; hubKeys: Keyring }
  beforeAll(async () => {
    tasks.hubKeys = await freshKeyring()
    tasks.app = await buildTestTasksApp(handle.current.db, { hubKeys: keysOf(tasks.hubKeys) })
  })
  afterAll(async () => {
    await tasks.app?.close()
  })
  return Object.assign(tasks, {
    async createTask(userId: string, title: string): Promise<void> {
      const response = await tasks.app.inject({ method: 'POST', url: '/tasks', headers: { 'x-user-id': userId }, payload: { title } })
      expect(response.statusCode).toBe(201)
    }
  })
}
