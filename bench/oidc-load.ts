import autocannon from 'autocannon'
import { type Endpoints, type OidcPeer, codeFlow, endpointsOf, refresh } from './oidc-client.js'
import { processCpuMicroseconds } from './process-cpu.js'

/** As the issue measured: 8 concurrent loops (connections, for the fixed GETs), 5 s per scenario and provider. */
export const OIDC_LOAD = { loops: 8, warmUpSeconds: 1, measuredSeconds: 5 } as const

export interface OidcMeasurement {
  operationsPerSecond: number
  /** The provider's own CPU time per operation; undefined where it cannot be read. */
  serverCpuMicrosecondsPerOperation: number | undefined
}

export interface OidcScenario {
  name: string
  /** What one operation is. */
  unit: string
  /** Least Hearth ÷ Glewlwyd throughput the issue asks for. */
  targetRatio: number
  /** Gets what the load needs (tokens, a first flow per loop), unmeasured; resolves to what runs the load for a time and counts the operations. */
  prepare(peer: OidcPeer, endpoints: Endpoints): Promise<(seconds: number) => Promise<number>>
}

/**
 * The four scenarios of issue 32, written once against the endpoints each provider's discovery
 * document names. Any failed request fails the scenario, as in the rest of the bench.
 */
export const OIDC_SCENARIOS: OidcScenario[] = [
  {
    name: 'code + PKCE flow, signed-in browser (authorize → token)',
    unit: 'flows',
    targetRatio: 2,
    prepare: (peer, endpoints) => loops(async () => () => codeFlow(peer, endpoints).then(() => undefined))
  },
  {
    name: 'refresh_token grant (rotating)',
    unit: 'grants',
    targetRatio: 2,
    prepare: (peer, endpoints) =>
      loops(async () => {
        // Each loop follows its own chain of refresh tokens, each used once.
        let { refreshToken } = await codeFlow(peer, endpoints)
        return async () => {
          refreshToken = (await refresh(peer, endpoints, refreshToken)).refreshToken
        }
      })
  },
  {
    name: 'userinfo (bearer token)',
    unit: 'requests',
    targetRatio: 2,
    prepare: async (peer, endpoints) => {
      const { accessToken } = await codeFlow(peer, endpoints)
      return fixedRequests(endpoints.userinfo, [{ path: pathOf(endpoints.userinfo), headers: { authorization: `Bearer ${accessToken}` } }])
    }
  },
  {
    name: 'discovery + JWKS (GETs, in turn)',
    unit: 'requests',
    targetRatio: 1.5,
    prepare: async (peer, endpoints) => fixedRequests(peer.discoveryUrl, [{ path: pathOf(peer.discoveryUrl) }, { path: pathOf(endpoints.jwks) }])
  }
]

/** A warm-up run, then the measured one with the provider's CPU time read around it. */
export async function measureOidc(scenario: OidcScenario, peer: OidcPeer, load: { warmUpSeconds: number; measuredSeconds: number }): Promise<OidcMeasurement> {
  const run = await scenario.prepare(peer, await endpointsOf(peer))
  await run(load.warmUpSeconds)
  const cpuBefore = processCpuMicroseconds(peer.service.pid)
  const started = performance.now()
  const operations = await run(load.measuredSeconds)
  const elapsedSeconds = (performance.now() - started) / 1000
  const cpuAfter = processCpuMicroseconds(peer.service.pid)
  return {
    operationsPerSecond: operations / elapsedSeconds,
    serverCpuMicrosecondsPerOperation: cpuBefore === undefined || cpuAfter === undefined ? undefined : (cpuAfter - cpuBefore) / operations
  }
}

/** OIDC_LOAD.loops loops, each prepared once, each then repeating its step until the time is up. */
async function loops(prepare: () => Promise<() => Promise<void>>): Promise<(seconds: number) => Promise<number>> {
  const steps = await Promise.all(Array.from({ length: OIDC_LOAD.loops }, prepare))
  return async (seconds) => {
    const end = performance.now() + seconds * 1000
    let completed = 0
    await Promise.all(
      steps.map(async (step) => {
        while (performance.now() < end) {
          await step()
          completed++
        }
      })
    )
    return completed
  }
}

/** Fixed GETs, taken in turn on each connection, by autocannon: the client costs least there. */
function fixedRequests(url: string, requests: { path: string; headers?: Record<string, string> }[]): (seconds: number) => Promise<number> {
  return async (seconds) => {
    const result = await autocannon({ url, connections: OIDC_LOAD.loops, duration: seconds, requests: requests.map((request) => ({ method: 'GET', ...request })) })
    const failures = { errors: result.errors, timeouts: result.timeouts, non2xx: result.non2xx }
    if (Object.values(failures).some((count) => count > 0)) throw new Error(`${url}: requests failed ${JSON.stringify(failures)}`)
    return result.requests.total
  }
}

function pathOf(url: string): string {
  const { pathname, search } = new URL(url)
  return `${pathname}${search}`
}
