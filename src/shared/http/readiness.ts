import type { Logger } from '../logging.js'
import { outageReason } from '../database/availability.js'
import { NotReadyResponse, ReadyResponse } from './schemas.js'
import type { App } from './server.js'

/** How long a dependency has to answer a readiness check: under a load balancer's usual probe timeout. */
export const READINESS_CHECK_TIMEOUT_MS = 2_000

/** A dependency's check: resolves when it answers, rejects (within its own time limit) when not. */
export type ReadinessCheck = () => Promise<void>

export interface ReadinessOptions {
  path: string
  /** By name, as the 503 names them: `database`, `redis`. */
  checks: Record<string, ReadinessCheck>
  /** OpenAPI security requirement, where the service declares one by default. */
  security?: []
}

/**
 * Readiness, beside liveness: the health route says the process runs, this one says whether it
 * can serve, by asking each dependency at once. A load balancer takes an instance that answers
 * 503 out of rotation; an orchestrator that restarted it on a failing liveness probe instead
 * would restart every instance for an outage of their shared database.
 */
export function readinessRoute({ path, checks, security }: ReadinessOptions) {
  return async function readiness(app: App) {
    app.get(
      path,
      {
        config: { logSuccess: false, anyHost: true },
        schema: {
          summary: 'Readiness check: 200 when every dependency answers, else 503 naming what is down',
          tags: ['health'],
          ...(security ? { security } : {}),
          response: { 200: ReadyResponse, 503: NotReadyResponse }
        }
      },
      async (request, reply) => {
        const results = await checkAll(checks, request.log)
        const down = Object.keys(results).filter((name) => results[name] === 'down')
        if (down.length === 0) return { status: 'ready' as const }
        return reply.code(503).send({ error: `Not ready: ${down.join(' and ')} ${down.length > 1 ? 'are' : 'is'} down`, checks: results })
      }
    )
  }
}

async function checkAll(checks: Record<string, ReadinessCheck>, log: Logger): Promise<Record<string, 'up' | 'down'>> {
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, check]) => {
      try {
        await check()
        return [name, 'up'] as const
      } catch (error) {
        log.warn({ check: name, reason: outageReason(error) }, 'readiness check failed')
        return [name, 'down'] as const
      }
    })
  )
  return Object.fromEntries(entries)
}
