import autocannon from 'autocannon'
import { processCpuMicroseconds } from './process-cpu.js'
import type { Scenario } from './scenarios.js'
import type { RunningService } from './services.js'

export const LOAD = { connections: 32, warmUpSeconds: 1, measuredSeconds: 4 } as const

export interface Measurement {
  requestsPerSecond: number
  p50LatencyMs: number
  p99LatencyMs: number
  requests: number
  /** The server's own CPU time per request in the measured run; undefined where it cannot be read. */
  serverCpuMicrosecondsPerRequest: number | undefined
}

/**
 * A short unmeasured run first (JIT, caches, SQLite pages, connection setup), then the measured
 * one. Any connection error, timeout or non-2xx answer in either fails the scenario: throughput
 * of failing requests says nothing about the service.
 */
export async function measure(scenario: Scenario, server: RunningService, sessionHeaders: Record<string, string>): Promise<Measurement> {
  const headers = { ...scenario.headers, ...(scenario.signedIn ? sessionHeaders : {}) }
  await run(scenario, headers, server.baseUrl, LOAD.warmUpSeconds)
  const cpuBefore = processCpuMicroseconds(server.pid)
  const result = await run(scenario, headers, server.baseUrl, LOAD.measuredSeconds)
  const cpuAfter = processCpuMicroseconds(server.pid)
  return {
    requestsPerSecond: result.requests.average,
    p50LatencyMs: result.latency.p50,
    p99LatencyMs: result.latency.p99,
    requests: result.requests.total,
    serverCpuMicrosecondsPerRequest:
      cpuBefore === undefined || cpuAfter === undefined ? undefined : (cpuAfter - cpuBefore) / result.requests.total
  }
}

async function run(scenario: Scenario, headers: Record<string, string>, baseUrl: string, seconds: number): Promise<autocannon.Result> {
  const result = await autocannon({
    url: `${baseUrl}${scenario.path}`,
    method: scenario.method,
    connections: LOAD.connections,
    duration: seconds,
    headers,
    ...(scenario.body === undefined ? {} : { body: scenario.body })
  })
  const failures = { errors: result.errors, timeouts: result.timeouts, non2xx: result.non2xx }
  if (Object.values(failures).some((count) => count > 0)) {
    throw new Error(`${scenario.name}: requests failed ${JSON.stringify(failures)}`)
  }
  return result
}
